import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The unit tests under src/ that change what a whole process shares (globalThis.fetch, a spy on
 * JSON, the cwd, process listeners), or load the built package (dist/) beside the sources: they keep
 * a module graph of their own, as every file under test/ does.
 */
const OWN_PROCESS_STATE = [
  'src/core/clock/RealClock.test.ts',
  'src/core/clock/VirtualClock.untracked.test.ts',
  'src/core/secretText.test.ts',
  'src/faults/http/ArrivalHolds.test.ts',
  'src/faults/http/outboundGuard.test.ts',
  'src/faults/rejectedLater.test.ts',
  'src/public/testcontainers.test.ts',
  'src/scenario/library.test.ts',
];

/**
 * Files under test/ that are as pure as the units under src/ (no child process, server, msw or
 * nock interception, cwd, environment or global change; found by searching test/ for them): they
 * join the `units` graph. Isolated, each loaded the trial graph afresh: these 18 files took 30.5 s
 * of CPU isolated, 20.1 s shared (docs/testing.md, seventh round). Shuffled runs passed.
 */
const PURE_TESTS = [
  'test/agentData.property.test.ts',
  'test/behaviourMix.test.ts',
  'test/correctAgents.property.test.ts',
  'test/declaredOutputLies.test.ts',
  'test/floors.test.ts',
  'test/house.test.ts',
  'test/laws.test.ts',
  'test/misbehaving-agents.test.ts',
  'test/naive-variants.test.ts',
  'test/property.test.ts',
  'test/tallies.test.ts',
  'test/golden/interleaving.golden.test.ts',
  'test/golden/services.golden.test.ts',
  'test/tasks/taskManager.test.ts',
  'test/docs/apiDoc.test.ts',
  'test/docs/docs.test.ts',
  'test/build/yamlCache.test.ts',
  'test/network/travel.test.ts',
  // The crowd simulations that run trials in this process only (no CLI, no browser, no server).
  'test/crowds/determinism.test.ts',
  'test/crowds/literature.test.ts',
  'test/crowds/merge.test.ts',
  'test/crowds/nested.test.ts',
  'test/crowds/scale.test.ts',
];

/** test/cli files that keep a fork of their own, and why. */
const OWN_FORK = [
  // Sends SIGINT to its own process (an agent that is told to stop while it loads).
  'test/cli/fuzzNewSurfaces.test.ts',
  // Split from it: modules that call process.exit at import, in this process (inProcess traps it), or never settle.
  'test/cli/fuzzNewSurfacesExits.test.ts',
  // The process's own signals, on the binary and in process.
  'test/cli/signals.test.ts',
  // Its scenario module fills a global of the process that loads it with 48 MB (`ballast`).
  'test/cli/heapLimit.test.ts',
];

/**
 * The test/cli files run one after another in one fork per core over one module graph (project
 * `shared`), as the units do: each runs the CLI in this process (test/cli/inProcess.ts, which puts
 * the working directory, the environment and stderr back after each case) or spawns it, and leaves
 * the process as it found it, which test/setup/leavesNothing.ts checks after every file (cwd,
 * environment, exit code, process listeners, patched globals). Isolated, each loaded vitest, its
 * helpers, the built CLI and tsx afresh (docs/testing.md, ninth round, speed42n).
 */
const SHARED_TESTS = [
  ...readdirSync(new URL('test/cli', import.meta.url))
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `test/cli/${name}`)
    .filter((file) => !OWN_FORK.includes(file)),
  'test/setup/processState.test.ts',
];

export default defineConfig({
  test: {
    // The other unit tests under src/ are pure: one fork runs file after file over one module
    // graph (isolate: false), not a fresh one per file. Loading that graph was most of their CPU
    // (src/ took 133 s of CPU isolated, 33 s shared, same tests; docs/testing.md, sixth round).
    projects: [
      {
        extends: true,
        test: {
          name: 'units',
          include: ['src/**/*.test.ts', ...PURE_TESTS],
          exclude: OWN_PROCESS_STATE,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts', ...OWN_PROCESS_STATE],
          exclude: [...configDefaults.exclude, ...PURE_TESTS, ...SHARED_TESTS, 'test/http/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'shared',
          include: SHARED_TESTS,
          isolate: false,
          setupFiles: ['test/setup/leavesNothing.ts'],
        },
      },
      // The interception tests under test/http: each installs msw or nock (or both) for its world and
      // removes them at its end (teardown.*.test.ts checks that nothing is left), and none touches
      // the process otherwise: like the units, one fork runs them file after file over one graph.
      // Loading msw, nock and faultline's sources per file was most of their CPU.
      { extends: true, test: { name: 'http', include: ['test/http/**/*.test.ts'], isolate: false } },
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
