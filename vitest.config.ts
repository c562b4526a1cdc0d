import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that change what every module sees, so each gets a process of its own: a module mock
 * (vi.mock) replaces a module for whatever else the process runs.
 */
const ISOLATED = ['test/config/pipeline-cache.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest 4.1 runs cpus - 1 files at once: one at a time on CI's two cores. Most of our time is
    // spent waiting on child processes (the CLI, the emulator, Redis, the S3 server), so one file per core.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        // The rest share their worker processes: a fresh process per file cost about 30% of the
        // suite's CPU (its start, and compiling the same modules again). Each file still gets its
        // own module instances; a test must leave process-wide state (env, timers, listeners) as it
        // found it.
        test: { name: 'shared', isolate: false, include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ISOLATED] },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
