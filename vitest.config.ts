import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    // One fork per core. vitest's default for `run` is one fewer, leaving a core to its own
    // process, which here mostly waits: on CI's 2 cores that default is a single fork, every file
    // in a row, and a core idle whenever a file waits on a CLI child, npm or tsc.
    maxWorkers: availableParallelism(),
    // Builds dist/ when it is older than src/: the e2e tests run the compiled CLI, as users do.
    globalSetup: ['test/setup/buildDist.ts'],
    testTimeout: 30_000,
    reporters: process.env.CI ? ['default', 'junit'] : ['default'],
    outputFile: { junit: 'reports/vitest-junit.xml' },
  },
});
