import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { fuzzSurfaces, HTTP_AGENT, httpScenario, SCENARIO, type Case } from './surfaceCases.js';

/**
 * The surfaces' fuzzing (./surfaceCases.ts, fuzzNewSurfaces.test.ts), its class of an agent that
 * takes its worker's heap: an http agent that allocates an array of 2^28 elements under the
 * smallest heap a worker takes, on one worker and on two, one that leaks in small steps in the
 * CLI's own process (`--workers 0`, on the binary, whose supervisor writes the reports), and a heap
 * too small to load under.
 * A file of its own: each run fills a heap and aborts a worker's process per trial, the
 * longest cases of the fuzzing. They run the CLI's entry in this process with its own stderr
 * taken into theirs (`processStderr`): a worker's host relays its stderr there, as it does to the
 * binary's, so the check that V8's report never reaches stderr can fail here too.
 */

// One trial's agent must end only that trial: its verdict, the other trials, the reports, exit 1.
const wholeRun: Case[] = [1, 2].map((workers): Case => ({
  cls: `an http agent that allocates an array of 2^28 elements, on ${workers} worker${workers === 1 ? '' : 's'}`,
  processStderr: true,
  files: { 'over-http.yaml': httpScenario(), 'agent.ts': HTTP_AGENT('new Array(2 ** 28).fill(0);') },
  // The smallest heap a worker takes: the array outgrows it in a fraction of the time 512 MB takes, well inside the bound.
  args: [
    'run',
    'over-http.yaml',
    '--k',
    '2',
    '--workers',
    String(workers),
    '--worker-heap',
    '32',
    '--out',
    'out',
    '--reporter',
    'console',
    '--reporter',
    'json',
  ],
  code: 1,
  // Out of memory, or (on a machine too slow to fill the heap first) the watchdog: the run goes on either way.
  stdout:
    /over-http × rulebook: 2 of 2 trials failed[\s\S]*(out of memory: the agent's code allocated past the worker's heap limit of 32 MB \(--worker-heap\)|no answer within the 10000 ms wall-clock watchdog)/,
  also: async (r, dir) => {
    expect(r.stderr).not.toMatch(/FATAL ERROR|Last few GCs|heap out of memory/);
    expect(JSON.parse(await readFile(join(dir, 'out/faultline.json'), 'utf8'))).toMatchObject({ run: { trials: 2 } });
  },
}));

// In the CLI's own process (--workers 0), a heap filled in small steps, each yielding (so no single call outgrows
// it): the process died with V8's abort, exit 134 and no report. Its supervisor writes them: the trial named, exit 1.
// On the binary: only it supervises, and the heap that runs out is the process's own.
wholeRun.push({
  cls: "an http agent that leaks its heap in small steps, in the CLI's own process (--workers 0)",
  binary: 'the process that dies of its heap is the CLI the test started',
  env: { NODE_OPTIONS: '--max-old-space-size=96' },
  files: {
    'over-http.yaml': httpScenario(),
    'agent.ts': HTTP_AGENT(
      'const kept: number[][] = [];\n  for (let i = 0; ; i++) {\n    kept.push(new Array(256).fill(i));\n' +
        '    if (i % 256 === 0) await Promise.resolve();\n  }',
    ),
  },
  args: ['run', 'over-http.yaml', '--k', '2', '--workers', '0', '--out', 'out', '--reporter', 'json'],
  code: 1,
  stderr:
    /the process that ran the trials died in over-http × rulebook trial 0 \(out of memory: V8 ran out of heap and ended it with SIG\w+\)[\s\S]*faultline replay \S*over-http\.yaml --config rulebook --seed 1 --trial 0/,
  also: async (r, dir) => {
    expect(r.stderr).not.toMatch(/FATAL ERROR|Last few GCs|heap out of memory/);
    expect(JSON.parse(await readFile(join(dir, 'out/faultline.json'), 'utf8'))).toMatchObject({
      run: { trials: 1, interrupted: true, stopped: { reason: 'process-died', trial: 'over-http × rulebook trial 0' } },
    });
  },
});

// A heap limit the workers cannot load under was a crash (exit 3, a stack), not a refusal.
wholeRun.push({
  cls: '--worker-heap below what a worker needs to load',
  files: { 's.yaml': SCENARIO('s') },
  args: ['run', 's.yaml', '--worker-heap', '16'],
  code: 2,
  stderr: /--worker-heap <mb>' argument '16' is invalid\. expected megabytes, at least 32/,
});

fuzzSurfaces('new surfaces, worker heap', wholeRun);
