import { Processor } from '@nestjs/bullmq';
import { JobProcessor } from '../jobs/job.processor';
import { QUEUES } from '../jobs/queues';

/** The daily mail-retention job's BullMQ consumer (worker process only). */
@Processor(QUEUES.mailRetention, { autorun: false, concurrency: 1 })
export class MailRetentionProcessor extends JobProcessor {}
