import { ConsoleLogger, LogLevel } from '@nestjs/common';

/** Every log line on stderr, so that stdout carries only a command's result. */
export class StderrLogger extends ConsoleLogger {
  protected override printMessages(messages: unknown[], context?: string, logLevel?: LogLevel): void {
    super.printMessages(messages, context, logLevel, 'stderr');
  }
}
