import { Global, Module } from '@nestjs/common';
import { ChangeRetentionJob } from './change-retention.job';
import { ChangeSources } from './change-sources';

/**
 * The change log's machinery: the registry of record kinds (each module registers its own) and
 * the daily retention. The rows themselves are written by the database's triggers.
 */
@Global()
@Module({ providers: [ChangeSources, ChangeRetentionJob], exports: [ChangeSources] })
export class ChangesPlatformModule {}
