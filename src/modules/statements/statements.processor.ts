import { Processor } from '@nestjs/bullmq';
import { JobProcessor } from '../../platform/jobs/job.processor';
import { QUEUES } from '../../platform/jobs/queues';

/** The statements queue's BullMQ consumer (worker process only). One run at a time per worker: a run renders its PDFs on the CPU. */
@Processor(QUEUES.statements, { autorun: false, concurrency: 1 })
export class StatementsProcessor extends JobProcessor {}
