import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { ADMIN_DATABASE_URL, databaseUrlFor } from './test-env';

/** The projects named by --selectProjects on jest's command line (none: every project runs). */
function selectedProjects(argv = process.argv): string[] {
  const at = argv.findIndex((arg) => arg === '--selectProjects' || arg.startsWith('--selectProjects='));
  if (at < 0) return [];
  if (argv[at].includes('=')) return argv[at].slice(argv[at].indexOf('=') + 1).split(',');
  const names: string[] = [];
  for (const arg of argv.slice(at + 1)) {
    if (arg.startsWith('-')) break;
    names.push(arg);
  }
  return names;
}

/**
 * A fresh database per run, migrated once, and a Redis key prefix (QUEUE_PREFIX) of the same name;
 * every test file then makes its own churches. A run of
 * the unit project alone (`--selectProjects unit`) needs none.
 */
export default async function globalSetup(): Promise<void> {
  const projects = selectedProjects();
  if (projects.length > 0 && projects.every((name) => name === 'unit')) return;
  // The `cluster` project's Redis Cluster on loopback (idempotent: an answering cluster is left as it is).
  if (projects.length === 0 || projects.includes('cluster')) {
    execFileSync('bash', [resolve(__dirname, '../../.ci/redis-cluster.sh')], { stdio: 'inherit' });
    process.env.TEST_RUN_ON_CLUSTER = 'true'; // for the teardown
  }
  Logger.overrideLogger(['error', 'warn']); // TypeORM's start-up chatter (debug) stays out of the CI log
  const name = `church_test_${Date.now()}_${process.pid}`;
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = databaseUrlFor(name);
  const source = new DataSource(dataSourceOptions(url, 1));
  await source.initialize();
  await source.runMigrations({ transaction: 'each' });
  await source.destroy();
  process.env.TEST_DATABASE_NAME = name;
  process.env.DATABASE_URL = url;
  // The run's own Redis keys: two runs at once (`npm test` runs two jest processes) share Redis, and a
  // worker of one must never take the other's jobs. Files that start workers of their own add their own prefix.
  process.env.QUEUE_PREFIX = name;
  process.env.NODE_ENV = 'test';
  process.env.LOG_LEVEL = 'error';
  process.env.DB_MIGRATE_ON_START = 'false';
  // Suites call the public routes (OAuth, OpenAPI) far more than a client would from one address;
  // address-limits.int-spec.ts tests PUBLIC_RATE_LIMIT itself.
  process.env.PUBLIC_RATE_LIMIT = '1000000';
}
