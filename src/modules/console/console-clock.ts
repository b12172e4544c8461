import { Injectable } from '@nestjs/common';

/**
 * The time the console's sessions are measured by (idle and absolute limits). One provider, so a
 * test moves the clock instead of waiting 30 minutes.
 */
@Injectable()
export class ConsoleClock {
  now(): Date {
    return new Date();
  }
}
