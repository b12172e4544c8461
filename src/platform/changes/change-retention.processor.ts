import { Processor } from '@nestjs/bullmq';
import { JobProcessor } from '../jobs/job.processor';
import { QUEUES } from '../jobs/queues';

/** The daily change-retention job's BullMQ consumer (worker process only). */
@Processor(QUEUES.changeRetention, { autorun: false, concurrency: 1 })
export class ChangeRetentionProcessor extends JobProcessor {}
