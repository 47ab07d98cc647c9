import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The unit tests under src/ that change what a whole process shares (globalThis.fetch, a spy on
 * JSON, the cwd, process listeners), or load the built package (dist/) beside the sources: they keep
 * a module graph of their own, as every file under test/ does.
 */
const OWN_PROCESS_STATE = [
  'src/core/clock/RealClock.test.ts',
  'src/core/secretText.test.ts',
  'src/faults/http/ArrivalHolds.test.ts',
  'src/faults/http/outboundGuard.test.ts',
  'src/faults/rejectedLater.test.ts',
  'src/public/testcontainers.test.ts',
  'src/scenario/library.test.ts',
];

export default defineConfig({
  test: {
    // The other unit tests under src/ are pure: one fork runs file after file over one module
    // graph (isolate: false), not a fresh one per file. Loading that graph was most of their CPU
    // (src/ took 133 s of CPU isolated, 33 s shared, same tests; docs/testing.md, sixth round).
    projects: [
      {
        extends: true,
        test: { name: 'units', include: ['src/**/*.test.ts'], exclude: OWN_PROCESS_STATE, isolate: false },
      },
      // The interception tests under test/http: each installs msw or nock (or both) for its world and
      // removes them at its end (teardown.*.test.ts checks that nothing is left), and none touches
      // the process otherwise: like the units, one fork runs them file after file over one graph.
      // Loading msw, nock and faultline's sources per file was most of their CPU.
      { extends: true, test: { name: 'http', include: ['test/http/**/*.test.ts'], isolate: false } },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts', ...OWN_PROCESS_STATE],
          exclude: [...configDefaults.exclude, 'test/http/**'],
        },
      },
    ],
    pool: 'forks',
    // One fork per core. vitest's default for `run` is one fewer, leaving a core to its own
    // process, which here mostly waits: on CI's 2 cores that default is a single fork, every file
    // in a row, and a core idle whenever a file waits on a CLI child, npm or tsc.
    maxWorkers: availableParallelism(),
    // Builds dist/ when it is older than src/: the e2e tests run the compiled CLI, as users do.
    globalSetup: ['test/setup/buildDist.ts'],
    // Bounds that exist only to catch a hang: generous, so a slow or loaded machine never fails a
    // test for taking long (at load 15 to 20 on 2 cores, 30 s and 60 s bounds ran out on healthy
    // tests, and a beforeAll that timed out showed as skipped tests). Tests keep no shorter bounds
    // of their own; the few that need more (installing the packed tarball) say so.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    reporters: process.env.CI ? ['default', 'junit'] : ['default'],
    outputFile: { junit: 'reports/vitest-junit.xml' },
  },
});
