import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    // Builds dist/ when it is older than src/: the e2e tests run the compiled CLI, as users do.
    globalSetup: ['test/setup/buildDist.ts'],
    testTimeout: 30_000,
    reporters: process.env.CI ? ['default', 'junit'] : ['default'],
    outputFile: { junit: 'reports/vitest-junit.xml' },
  },
});
