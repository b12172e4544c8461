import { Processor } from '@nestjs/bullmq';
import { JobProcessor } from '../../platform/jobs/job.processor';
import { QUEUES } from '../../platform/jobs/queues';

/** The notifications queue's BullMQ consumer (worker process only). A run sends its batches' mails and pushes concurrently itself. */
@Processor(QUEUES.notifications, { autorun: false, concurrency: 2 })
export class NotificationsProcessor extends JobProcessor {}
