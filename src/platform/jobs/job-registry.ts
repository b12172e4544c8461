import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { BackgroundJob, BackgroundJobOptions, JobHandler } from './background-job';

export interface RegisteredJob {
  handler: JobHandler<never>;
  options: Required<BackgroundJobOptions>;
}

const DEFAULTS = { maxAttempts: 5 };

/** Finds every `@BackgroundJob` provider of the application at start-up. */
@Injectable()
export class JobRegistry implements OnModuleInit {
  private readonly jobs = new Map<string, RegisteredJob>();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders({ metadataKey: BackgroundJob.KEY })) {
      const options = this.discovery.getMetadataByDecorator(BackgroundJob, wrapper);
      if (!options || !wrapper.instance) continue;
      if (this.jobs.has(options.kind)) throw new Error(`Two handlers for background job '${options.kind}'`);
      this.jobs.set(options.kind, {
        handler: wrapper.instance as JobHandler<never>,
        options: { ...DEFAULTS, ...options },
      });
    }
  }

  kinds(): string[] {
    return [...this.jobs.keys()];
  }

  get(kind: string): RegisteredJob | undefined {
    return this.jobs.get(kind);
  }

  options(kind: string): Required<BackgroundJobOptions> {
    return this.jobs.get(kind)?.options ?? { kind: kind as BackgroundJobOptions['kind'], ...DEFAULTS };
  }
}
