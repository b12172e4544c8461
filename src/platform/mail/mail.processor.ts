import { Processor } from '@nestjs/bullmq';
import { JobProcessor } from '../jobs/job.processor';
import { QUEUES } from '../jobs/queues';

/** The mail outbox's BullMQ consumer (worker process only). */
@Processor(QUEUES.mail, { autorun: false, concurrency: 4 })
export class MailProcessor extends JobProcessor {}
