import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest 4.1 runs cpus - 1 files at once: one at a time on CI's two cores. Most of our time is
    // spent waiting on child processes (the CLI, the emulator, Redis, the S3 server), so one file per core.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
