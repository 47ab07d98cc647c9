/**
 * Crash points searched and swept (issue 45): `explore --crash-only` draws the crash points of a
 * command agent itself and shrinks to the first that breaks it; `sweep --crash` runs every series
 * again under one. The worked examples from a user's project outside the repo, in process through
 * the CLI's entry (crashAgent.test.ts runs them once through the binary).
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/crash/', import.meta.url));
const example = (path: string): Promise<string> => readFile(`${EXAMPLES}${path}`, 'utf8');

let project: Awaited<ReturnType<typeof userProject>>;

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (const f of [
    'agents/orders.mjs',
    'agents/naive.mjs',
    'agents/recorded.mjs',
    'naive-after-create.yaml',
    'recorded-after-create.yaml',
  ])
    files[f] = await example(f);
  project = await userProject('crash-search', files);
});
afterAll(() => project.cleanup());

type Report = { cells: { scenario: string; trials: { failed: string[] }[] }[] };
const report = async (out: string): Promise<Report> =>
  JSON.parse(await readFile(`${project.path}/${out}/faultline.json`, 'utf8')) as Report;
const failedBy = (r: Report): Record<string, string[]> =>
  Object.fromEntries(r.cells.map((c) => [c.scenario, [...new Set(c.trials.flatMap((t) => t.failed))].sort()]));

describe('crash points searched by explore and swept by sweep', () => {
  it('in process, explore --crash-only: shrinks to the first crash point that breaks the naive agent, the same file for the same seed, which run fails; the recorded agent holds', async () => {
    // The naive agent judged by duplicates alone: one class to shrink (it breaks retry-discipline's R7 and R21 too);
    // the recorded one by every checker.
    const explore = (file: string, runs: string, out: string, ...more: string[]) =>
      inProcess(['explore', file, '--crash-only', ...more, '--runs', runs, '--seed', '1', '--out', out], {
        cwd: project.path,
      });
    const naive = await explore('naive-after-create.yaml', '4', 'regs', '--check', 'duplicates');
    expect(naive.code, naive.stderr).toBe(1);
    expect(naive.stdout).toMatch(/duplicates\/R22 at plan \d; shrunk in \d+ steps? to 0 fault rules and a crash point/);
    expect(naive.stdout).toContain('fired in the failing trial: crash.agent (after effect #1 of create_order) 1×');
    const [file, ...more] = await readdir(`${project.path}/regs`);
    expect(more).toEqual([]);
    const text = await readFile(`${project.path}/regs/${file}`, 'utf8');
    // The first crash point that breaks it: right after the first order committed, with no fault rule beside it.
    const regression = parseYaml(text) as { crash: unknown; faults: unknown; agent: { cwd: string } };
    expect(regression.crash).toEqual({ agent: { afterEffectOf: 'create_order' } });
    expect(regression.faults).toEqual([]);
    expect(regression.agent.cwd).toBe('..');
    // The same seed again: the same plan, the same file, byte for byte.
    const again = await explore('naive-after-create.yaml', '4', 'regs', '--check', 'duplicates');
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('(unchanged: the same plan was kept before)');
    expect(await readFile(`${project.path}/regs/${file}`, 'utf8')).toBe(text);
    const run = await inProcess(
      ['run', `regs/${file}`, '--seed', '1', '--k', '1', '--out', 'reg-out', '--reporter', 'json'],
      {
        cwd: project.path,
      },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(Object.values(failedBy(await report('reg-out')))[0]).toContain('duplicates');
    const recorded = await explore('recorded-after-create.yaml', '6', 'regs-recorded');
    expect(recorded.code, recorded.stdout).toBe(0);
    expect(recorded.stdout).toMatch(
      /crash-recorded-after-create × rulebook: 6 plans, none failed; [1-6] of 6 plans exercised/,
    );
    // An agent that cannot be crashed has no crash point to draw: refused before any trial.
    const refused = await inProcess(['explore', 'order-partial-write-no-idempotency', '--crash-only'], {
      cwd: project.path,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      '--crash-only: draws crash points of the agent (crash.agent), which crashes a command agent, or one function or http agent',
    );
    expect(refused.stderr).toContain('agent.kind is "scripted"');
  });

  it("in process, sweep --crash: every series again under the crash point, in place of the scenario's own; its replay line reruns it; refused where it cannot crash", async () => {
    const sweep = await inProcess(
      [
        'sweep',
        'naive-after-create.yaml',
        'recorded-after-create.yaml',
        '--crash',
        '{afterEffectOf: create_order, nth: 2}',
        '--fault',
        'rate_limit',
        '--lambda',
        '0',
        '--k',
        '1',
        '--reporter',
        'json',
        '--out',
        'sweep-out',
      ],
      { cwd: project.path },
    );
    expect(sweep.code, sweep.stderr).toBe(0);
    type Sweep = {
      sweep: {
        series: { label: string; crash?: unknown }[];
        byScenario: { scenario: string; points: { pass1: number; replay?: string }[] }[];
      };
    };
    const { sweep: json } = JSON.parse(await readFile(`${project.path}/sweep-out/sweep.json`, 'utf8')) as Sweep;
    expect(json.series).toEqual([
      expect.objectContaining({
        label: 'rate_limit + crash(after effect #2 of create_order)',
        crash: { afterEffectOf: 'create_order', nth: 2 },
      }),
    ]);
    const point = (name: string) => json.byScenario.find((r) => r.scenario === name)!.points[0]!;
    expect(point('crash-naive-after-create').pass1).toBe(0);
    expect(point('crash-recorded-after-create').pass1).toBe(1);
    const replay = point('crash-naive-after-create').replay!;
    expect(replay).toContain(`--crash '{"afterEffectOf":"create_order","nth":2}'`);
    // The printed command as a shell splits it: words, and single-quoted words.
    const words = replay.match(/'[^']*'|\S+/g)!.map((w) => w.replace(/^'(.*)'$/, '$1'));
    const again = await inProcess(words.slice(1), { cwd: project.path });
    expect(again.code, again.stderr).toBe(1);
    expect(again.stdout).toContain('agent killed (crash after effect #2 of create_order)');
    const refused = await inProcess(['sweep', 'order-partial-write-no-idempotency', '--crash', '{afterCall: 1}'], {
      cwd: project.path,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      '--crash: crashes the agent (crash.agent), which needs a command agent, or one function or http agent',
    );
    const bad = await inProcess(['sweep', 'naive-after-create.yaml', '--crash', '{afterCall: 0}'], {
      cwd: project.path,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('crash.agent.afterCall');
  });
});
