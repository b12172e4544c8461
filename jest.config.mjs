// @ts-check
/**
 * Three projects, one run (`npm test` runs them all; `npm run test:<project>` one of them):
 *
 * - unit: `*.spec.ts` beside the code in src/, test/lint-layers.spec.ts and the SDK's specs (sdk/test/); no
 *   database, no app;
 * - api: test/api/, each file the API in process (TestApi) on the run's database, HTTP through
 *   supertest: the everyday loop;
 * - system: test/system/, what needs more than one app in process: the built server, CLI and worker
 *   as processes, headless Chromium, restarts, cut connections, workers stopped mid-job, PGlite,
 *   shutdown, the README walk-through, and suites that run for minutes.
 * - cluster: the webhook, rate-limit, job and cache suites again, on a three-node Redis Cluster on
 *   loopback (REDIS_CLUSTER_NODES, with REDIS_URL where nothing answers; .ci/redis-cluster.sh,
 *   which the global setup runs), and test/cluster/: what only a cluster shows (keys, hash slots).
 *
 * globalSetup and globalTeardown are the run's, so they are set here and not in a project: one
 * database per run, whatever the projects (none for `unit` alone).
 */

/** TypeScript through SWC, decorators and their metadata as Nest needs them. */
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        target: 'es2022',
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
      },
      module: { type: 'commonjs' },
    },
  ],
};

/**
 * @param {string} displayName
 * @param {string[]} roots
 * @param {string} testRegex
 * @param {string[]} [setupFiles]
 * @returns {import('jest').Config}
 */
const project = (displayName, roots, testRegex, setupFiles = []) => ({
  displayName,
  rootDir: import.meta.dirname,
  roots,
  testRegex,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  // The SDK (sdk/src) is ESM TypeScript whose relative imports name the emitted `.js`: Jest takes the `.ts`.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform,
  setupFiles,
  testTimeout: 60_000,
});

/** The suites the `cluster` project runs again on the Redis Cluster: webhooks, rate limits and jobs across processes, a job queue, the list-totals cache. */
const ON_CLUSTER = ['system/many-processes', 'system/token-expiry', 'api/list-totals', 'cluster/[^/]+'];

/** @type {import('jest').Config} */
export default {
  rootDir: import.meta.dirname,
  projects: [
    project('unit', ['<rootDir>/src', '<rootDir>/test', '<rootDir>/sdk/test'], '\\.spec\\.ts$'),
    project('api', ['<rootDir>/test/api'], '\\.int-spec\\.ts$'),
    project('system', ['<rootDir>/test/system'], '\\.int-spec\\.ts$'),
    project('cluster', ['<rootDir>/test'], `/test/(${ON_CLUSTER.join('|')})\\.int-spec\\.ts$`, [
      '<rootDir>/test/support/on-redis-cluster.ts',
    ]),
  ],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 1,
};
