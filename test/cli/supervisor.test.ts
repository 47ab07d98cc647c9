import { readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import { faultline, start, tempDir } from './faultline.js';
import { agentScenario } from './misbehavingAgents.js';

/**
 * `run --workers 0` runs the agents' code in the CLI's own process, where an exhausted heap ends the process with
 * V8's abort and no last word: it ended the run with exit 134 (or 133) and no report. The binary now runs the trials
 * in one copy of its process and supervises it: the copy's death leaves the reports, written by the CLI from the
 * journal of the trials that finished, the trial it died in named and judged crashed, and exit 1. Through the real
 * binary (only it supervises); the journal → report path and the copy's end are tested in process beside their
 * modules (src/runner/runJournal.test.ts, src/cli/superviseRun.test.ts), a leak in small steps in
 * fuzzNewSurfacesHeap.test.ts.
 */

// V8's report as it aborts a process: never the user's to read.
const V8_REPORT = /FATAL ERROR|Last few GCs|heap out of memory|Native stack trace/;

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('supervisor');
  await writeFile(join(dir.path, 'good-agent.ts'), agentScenario('good-agent', ''));
  await writeFile(join(dir.path, 'huge-array.ts'), agentScenario('huge-array', 'new Array(2 ** 28).fill(0);'));
});
afterAll(() => dir.cleanup());

it('--workers 0, an agent that allocates an array of 2^28 elements: the reports are written, the trial named, exit 1', async () => {
  // A small heap for both processes, so that the array outgrows it in a moment (the CLI itself needs far less).
  const r = await faultline(['run', 'good-agent.ts', 'huge-array.ts', '--k', '1', '--workers', '0', '--out', 'out'], {
    cwd: dir.path,
    env: { NODE_OPTIONS: '--max-old-space-size=96' },
  });
  expect(r.signal).toBeNull();
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).not.toMatch(V8_REPORT);
  expect(r.stderr).toMatch(
    /faultline: the process that ran the trials died in huge-array × rulebook trial 0 \(out of memory: V8 ran out of heap and ended it with SIG\w+\); the reports cover the 1 trials that finished before it, and that one, judged crashed/,
  );
  expect(r.stderr).toContain('faultline replay ./huge-array.ts --config rulebook --seed 1 --trial 0');
  expect(r.stdout).toContain('reports: out/faultline.json, out/junit.xml, out/summary.md');
  const json = parseJsonReport(await readFile(join(dir.path, 'out/faultline.json'), 'utf8'), 'out/faultline.json');
  expect(json.run).toMatchObject({
    interrupted: true,
    trials: 2,
    stopped: { reason: 'process-died', trial: 'huge-array × rulebook trial 0' },
  });
  expect(json.cells.find((c) => c.scenario === 'good-agent')!.metrics.successes).toBe(1);
  const huge = json.cells.find((c) => c.scenario === 'huge-array')!;
  expect(huge.metrics.ends).toEqual({ crashed: 1 });
  const end = huge.trials[0]!.end;
  expect('message' in end ? end.message : '').toMatch(
    /the CLI's own process died while this trial ran in it \(--workers 0\): out of memory/,
  );
  expect(await readFile(join(dir.path, 'out/junit.xml'), 'utf8')).toMatch(
    /<property name="stopped" value="process-died in huge-array × rulebook trial 0: out of memory/,
  );
  expect(await readFile(join(dir.path, 'out/summary.md'), 'utf8')).toContain(
    "stopped: the CLI's own process died in huge-array × rulebook trial 0",
  );
});

/** The processes alive now whose command line holds `marker`, by pid and command line (zombies are dead: left out). */
function marked(marker: string): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (cmdline.includes(marker) && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z')
        found.push({ pid: Number(entry), cmdline });
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

it('--workers 0, the supervisor killed with SIGKILL mid-trial: the copy that runs the trials does not outlive it', async () => {
  // The copy runs the supervisor's command line: a file name no other test's process holds finds the two of them.
  const marker = `${basename(dir.path)}-waits`;
  const copies = (): number[] => marked(marker).flatMap((p) => (p.cmdline.includes('faultline.js') ? [p.pid] : []));
  // The agent waits on a real process (work the trial waits for), marked too, so that the test ends it. It says so
  // once that process has started: until its exec, a forked child still shows the copy's command line, and CI once
  // counted it as a second copy.
  const waits =
    "const { execFile } = await import('node:child_process'); await new Promise((r) => { " +
    `const sleeper = execFile(process.execPath, ['-e', 'setTimeout(() => {}, 120_000)', '${marker}'], r); ` +
    "sleeper.once('spawn', () => process.stderr.write('the agent waits\\n')); });";
  await writeFile(join(dir.path, `${marker}.ts`), agentScenario('waits', waits));
  const supervisor = start(['run', `${marker}.ts`, '--k', '1', '--workers', '0', '--out', 'out-killed'], {
    cwd: dir.path,
  });
  try {
    await supervisor.stderrLine(/the agent waits/);
    expect(copies().filter((pid) => pid !== supervisor.child.pid)).toHaveLength(1);
    const exited = new Promise((resolve) => supervisor.child.once('exit', resolve));
    supervisor.child.kill('SIGKILL');
    await exited;
    // Generous: the copy hears of its parent's death through its IPC channel at once.
    const deadline = performance.now() + 10_000;
    while (copies().length > 0 && performance.now() < deadline) await sleep(100);
    expect(copies()).toEqual([]);
  } finally {
    for (const { pid } of marked(marker)) process.kill(pid, 'SIGKILL');
  }
});
