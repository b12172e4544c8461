import { Processor } from '@nestjs/bullmq';
import { JobProcessor } from '../../platform/jobs/job.processor';
import { QUEUES } from '../../platform/jobs/queues';

/** The token-expiry queue's BullMQ consumer (worker process only). */
@Processor(QUEUES.tokenExpiry, { autorun: false })
export class TokenExpiryProcessor extends JobProcessor {}
