import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { agentScenarioJs } from './misbehavingAgents.js';

/**
 * An agent that grows one array past its worker's heap limit in a single builtin call: V8 cannot
 * stop it when the limit is reached (the thread is told to stop, the builtin goes on allocating)
 * and then aborts the process it runs in. Before workers ran in processes of their own, that was
 * the CLI: exit 134, no report. Now the trial crashes with a verdict that names the limit and
 * the flag, the other trials run, the reports are written, and the exit code is the verdict's.
 * The run of each kind goes through the real binary; the replay, the explore, a refusal of the
 * flag and a run that loads under the default limit run the CLI's entry in this process
 * (./inProcess.ts), the replay and the explore with this process's own stderr taken into theirs
 * (`processStderr`): the host process of a worker relays its stderr there, as it does to the
 * binary's, so the check that V8's report never reaches stderr can fail in process too.
 */

// The smallest limit (--worker-heap's floor), so that the heap runs out well before the watchdog, even on a loaded machine.
const LIMITS = ['--worker-heap', '32', '--trial-timeout', '120000'];
const OOM = /out of memory: the agent's code allocated past the worker's heap limit of 32 MB \(--worker-heap\)/;
// What V8 prints as it aborts a process: never the user's to read.
const V8_REPORT = /FATAL ERROR|Last few GCs|heap out of memory|Native stack trace/;

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('heap');
  // JavaScript files (.mjs): the heap is the claim, not the language, and each trial that runs out of
  // memory takes its worker's process with it, so a .ts file had tsx loaded again for every fresh one.
  await writeFile(join(dir.path, 'huge-array.mjs'), agentScenarioJs('huge-array', 'new Array(2 ** 28).fill(0);'));
  await writeFile(join(dir.path, 'good-agent.mjs'), agentScenarioJs('good-agent', ''));
  // 48 MB held from import on: the CLI loads it, a worker limited to 32 MB cannot.
  await writeFile(
    join(dir.path, 'ballast.mjs'),
    `globalThis['ballast'] = new Array(6_000_000).fill(1.5);\n${agentScenarioJs('ballast', '')}`,
  );
});
afterAll(() => dir.cleanup());

describe('an agent that allocates an array of 2^28 elements', () => {
  it('run: its trial crashes out of memory, the trial after it on the same worker passes, reports are written, exit 1', async () => {
    const r = await faultline(
      ['run', 'huge-array.mjs', 'good-agent.mjs', '--k', '1', '--workers', '1', ...LIMITS, '--out', 'out'],
      { cwd: dir.path },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(V8_REPORT);
    expect(r.stdout).toContain('reports: out/faultline.json, out/junit.xml, out/summary.md');
    const json = parseJsonReport(await readFile(join(dir.path, 'out/faultline.json'), 'utf8'), 'out/faultline.json');
    const huge = json.cells.find((c) => c.scenario === 'huge-array')!;
    expect(huge.metrics.ends).toEqual({ crashed: 1 });
    const end = huge.trials[0]!.end;
    expect('message' in end ? end.message : '').toMatch(OOM);
    expect(huge.trials[0]!.failed).toContain('goal-state');
    expect(json.cells.find((c) => c.scenario === 'good-agent')!.metrics.successes).toBe(1);
  });

  it('replay: exit 1 with the out-of-memory verdict', async () => {
    const r = await inProcess(['replay', './huge-array.mjs', '--seed', '1', '--trial', '0', ...LIMITS], {
      cwd: dir.path,
      processStderr: true,
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(V8_REPORT);
    expect(r.stdout).toContain('huge-array × rulebook, seed 1, trial 0: failed (goal-state)');
    expect(r.stdout).toMatch(OOM);
  });

  it('explore: exit 1, the scenario fails with no added fault, with the out-of-memory verdict', async () => {
    // One plan: the claim is the scenario's own trial, and each plan's trial runs out of memory too (about 1 s of CPU each).
    const r = await inProcess(['explore', './huge-array.mjs', '--runs', '1', ...LIMITS], {
      cwd: dir.path,
      processStderr: true,
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(V8_REPORT);
    expect(r.stdout).toContain('huge-array × rulebook: fails with no added fault');
    expect(r.stdout).toMatch(OOM);
  });
});

describe('a heap limit the scenarios cannot be loaded under', () => {
  it('below the floor: exit 2 naming the flag and the floor, before any worker starts', async () => {
    const r = await inProcess(['run', 'good-agent.mjs', '--worker-heap', '16'], { cwd: dir.path });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`argument '16' is invalid. expected megabytes, at least 32`);
  });

  it('above the floor, but too small for what the scenario holds from import: exit 2 naming the limit and the files, no stack', async () => {
    const r = await faultline(
      ['run', 'ballast.mjs', 'good-agent.mjs', '--k', '1', '--workers', '1', ...LIMITS, '--out', 'ballast-out'],
      { cwd: dir.path },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /^error: --worker-heap 32: a worker ran out of memory while loading the scenarios \(\S*ballast\.mjs, \S*good-agent\.mjs\) under its heap limit of 32 MB; give it more \(the default is 512 MB\)$/m,
    );
    expect(r.stderr).not.toMatch(/faultline crashed|\n\s+at /);
    expect(r.stderr).not.toMatch(V8_REPORT);
    // With the default limit the same files run.
    const ok = await inProcess(['run', 'ballast.mjs', '--k', '1', '--workers', '1', '--out', 'ballast-ok'], {
      cwd: dir.path,
    });
    expect(ok.code, ok.stderr).toBe(0);
  });
});
