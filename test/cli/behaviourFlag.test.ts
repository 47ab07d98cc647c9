/**
 * `--behaviour` (issue 43): one scenario run under another behaviour of the scripted stand-in without editing it.
 * With the flag, a trial's history is that of the scenario edited to the behaviour (same seed, byte for byte); a bad
 * value is exit 2 naming the flag, what was given and the known names; without a stand-in it is refused.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';

// The first create_order answers 429 with Retry-After: 5; a runtime that neither retries nor reads hints hands it to
// the model: careful waits, ignores-retry-after resends at once (R9, R10).
const scenario = (behaviour?: string): string => `name: rate-limited-order
faults:
  - { match: { tool: create_order }, fault: { kind: rate_limit, retryAfter: 5 }, times: 1 }
goal: { effects: { order.created: 1 } }
agent:
  kind: scripted
  task: Create order ref-1
${behaviour === undefined ? '' : `  behaviour: ${behaviour}\n`}  plan:
    steps:
      - name: order
        tool: create_order
        input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1500 }
        subject: orders:ref-1
`;
const CONFIG = 'name: no-hints\nmaxAttempts: 1\nretryAfter: { mode: ignore }\n';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('behaviour-flag');
  await mkdir(join(dir.path, 'edited'));
  await writeFile(join(dir.path, 'order.yaml'), scenario());
  await writeFile(join(dir.path, 'edited', 'order.yaml'), scenario('ignores-retry-after'));
  await writeFile(join(dir.path, 'no-hints.yaml'), CONFIG);
});
afterAll(() => dir.cleanup());

const trialsOf = async (out: string): Promise<unknown> =>
  (JSON.parse(await readFile(join(dir.path, out, 'faultline.json'), 'utf8')) as { cells: { trials: unknown }[] })
    .cells[0]!.trials;

const RUN = ['--config', './no-hints.yaml', '--k', '3', '--seed', '7', '--reporter', 'json', '--workers', '1'];

it('through the binary: --behaviour gives the history of the scenario edited to it, and its replay line names it', async () => {
  const flagged = await faultline(['run', 'order.yaml', ...RUN, '--behaviour', 'ignores-retry-after', '--out', 'a'], {
    cwd: dir.path,
  });
  expect(flagged.stderr).not.toMatch(/does not apply/);
  expect(flagged.code).toBe(1);
  const edited = await inProcess(['run', 'edited/order.yaml', ...RUN, '--out', 'b'], { cwd: dir.path });
  expect(edited.code).toBe(1);
  const [a, b] = [await trialsOf('a'), await trialsOf('b')];
  // The same trials, history and all; only the replay line differs, and it names the flag.
  const noReplay = (trials: unknown): string =>
    JSON.stringify((trials as Record<string, unknown>[]).map(({ replay: _replay, ...rest }) => rest));
  expect(noReplay(a)).toBe(noReplay(b));
  expect((a as { replay: string }[])[0]!.replay).toBe(
    'faultline replay ./order.yaml --config ./no-hints.yaml --behaviour ignores-retry-after --seed 7 --trial 0',
  );
});

describe('in process', () => {
  it('without the flag the scenario runs as written (careful waits: every gate holds)', async () => {
    const plain = await inProcess(['run', 'order.yaml', ...RUN, '--out', 'c'], { cwd: dir.path });
    expect(plain.code).toBe(0);
  });

  it('takes a mixture, and the replay of a failing trial with the flag fails as the run did', async () => {
    const mixed = await inProcess(
      ['run', 'order.yaml', ...RUN, '--behaviour', 'careful=0.5,ignores-retry-after=0.5', '--out', 'd'],
      { cwd: dir.path },
    );
    expect([0, 1]).toContain(mixed.code);
    const replay = await inProcess(
      [
        'replay',
        'order.yaml',
        '--config',
        './no-hints.yaml',
        '--seed',
        '7',
        '--trial',
        '0',
        '--behaviour',
        'ignores-retry-after',
      ],
      { cwd: dir.path },
    );
    expect(replay.code).toBe(1);
    const plain = await inProcess(
      ['replay', 'order.yaml', '--config', './no-hints.yaml', '--seed', '7', '--trial', '0'],
      {
        cwd: dir.path,
      },
    );
    expect(plain.code).toBe(0);
  });

  it('is refused for a run none of whose scenarios has the stand-in, twice the same, several where one is taken, or with --live', async () => {
    await writeFile(
      join(dir.path, 'cmd.yaml'),
      'name: cmd\nagent: { kind: command, task: t, argv: [node, -e, "1"] }\ngoal: { effects: {} }\n',
    );
    const none = await inProcess(['run', 'cmd.yaml', '--behaviour', 'careful'], { cwd: dir.path });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /--behaviour careful: no scenario of this run has the scripted stand-in.*cmd \(command agent\)/,
    );
    const twice = await inProcess(['compare', 'order.yaml', '--behaviour', 'careful', '--behaviour', 'careful'], {
      cwd: dir.path,
    });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/careful is named twice/);
    // One trial, one sweep point's trial, one search: one behaviour (or one mixture) each.
    for (const command of [
      ['replay', 'order.yaml', '--seed', '7', '--trial', '0'],
      ['sweep', 'order.yaml', '--fault', 'timeout', '--lambda', '0', '--replay', '0'],
      ['sweep', 'order.yaml'],
      ['explore', 'order.yaml'],
    ]) {
      const several = await inProcess([...command, '--behaviour', 'careful', '--behaviour', 'retries-blindly'], {
        cwd: dir.path,
      });
      expect(several.code, command.join(' ')).toBe(2);
      expect(several.stderr).toMatch(/--behaviour was given 2 behaviours \(careful, retries-blindly\)/);
      expect(several.stderr).toMatch(/faultline compare --behaviour careful,retries-blindly/);
    }
    const live = await inProcess(['run', 'order.yaml', '--behaviour', 'careful', '--live'], { cwd: dir.path });
    expect(live.code).toBe(2);
    expect(live.stderr).toMatch(/--behaviour careful: not with --live or --record/);
  });

  it('compare --behaviour a,b (or repeated): a cell per behaviour, each the run under that behaviour alone', async () => {
    const both = await inProcess(
      [
        'compare',
        'order.yaml',
        ...RUN,
        '--reporter',
        'console',
        '--behaviour',
        'careful,ignores-retry-after',
        '--out',
        'cmp',
      ],
      { cwd: dir.path },
    );
    expect(both.code).toBe(1);
    expect(both.stdout).toMatch(/1 scenario × 2 behaviours/);
    const repeated = await inProcess(
      ['compare', 'order.yaml', ...RUN, '--behaviour', 'careful', '--behaviour', 'ignores-retry-after', '--out', 'rep'],
      { cwd: dir.path },
    );
    expect(repeated.code).toBe(1);
    const report = async (out: string): Promise<{ cells: { config: string; trials: unknown[] }[] }> =>
      JSON.parse(await readFile(join(dir.path, out, 'faultline.json'), 'utf8')) as {
        cells: { config: string; trials: unknown[] }[];
      };
    const cells = (await report('cmp')).cells;
    expect(cells.map((c) => c.config)).toEqual(['careful', 'ignores-retry-after']);
    expect(JSON.stringify((await report('rep')).cells)).toBe(JSON.stringify(cells));
    // Each cell holds the trials of the run under its behaviour alone, history and replay line included.
    for (const [i, behaviour] of ['careful', 'ignores-retry-after'].entries()) {
      await inProcess(['run', 'order.yaml', ...RUN, '--behaviour', behaviour, '--out', `one-${behaviour}`], {
        cwd: dir.path,
      });
      expect(JSON.stringify(cells[i]!.trials)).toBe(JSON.stringify(await trialsOf(`one-${behaviour}`)));
    }
    // A gate's config= scope names a behaviour's column.
    const gated = await inProcess(
      [
        'compare',
        'order.yaml',
        ...RUN,
        '--behaviour',
        'careful,ignores-retry-after',
        '--gate',
        'config=careful:pass^3>=1',
        '--out',
        'g',
      ],
      { cwd: dir.path },
    );
    expect(gated.stderr).not.toMatch(/can never hold/);
    expect(gated.code).toBe(0);
  });

  it('sweep --behaviour: every trial under it, and the replay line of a failing one names it', async () => {
    const SWEEP = ['order.yaml', '--config', './no-hints.yaml', '--k', '2', '--fault', 'timeout', '--lambda', '0'];
    const swept = await inProcess(['sweep', ...SWEEP, '--behaviour', 'ignores-retry-after', '--out', 'sw'], {
      cwd: dir.path,
    });
    expect(swept.code).toBe(0);
    const replay =
      /faultline sweep \S+ --config \S+ --behaviour ignores-retry-after --fault timeout --lambda 0 --seed 1 --replay 0/;
    expect(swept.stdout).toMatch(replay);
    const plain = await inProcess(['sweep', ...SWEEP, '--out', 'sw0'], { cwd: dir.path });
    expect(plain.stdout).not.toMatch(/failing trial/);
    // The printed replay reruns the failing trial as it failed.
    const again = await inProcess(
      ['sweep', ...SWEEP, '--behaviour', 'ignores-retry-after', '--seed', '1', '--replay', '0'],
      { cwd: dir.path },
    );
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/R9/);
  });

  it('explore --behaviour: the regression file keeps the behaviour, so its own run fails as found', async () => {
    // Without faults careful passes; retries-blindly resends a call a permanent error refused (R7): explore finds it.
    await writeFile(join(dir.path, 'plain.yaml'), scenario().replace(/faults:\n.*\n/, ''));
    const explored = await inProcess(
      [
        'explore',
        'plain.yaml',
        '--config',
        './no-hints.yaml',
        '--behaviour',
        'retries-blindly',
        '--runs',
        '20',
        '--seed',
        '3',
        '--out',
        'reg',
      ],
      { cwd: dir.path },
    );
    expect(explored.code).toBe(1);
    const command = /reproduce: +faultline run (\S+) --config \.\/no-hints\.yaml --seed 3\n/.exec(explored.stdout);
    expect(command, explored.stdout).not.toBeNull();
    const file = command![1]!;
    expect(await readFile(join(dir.path, file), 'utf8')).toMatch(/^ {2}behaviour: retries-blindly$/m);
    const run = await inProcess(['run', file, '--config', './no-hints.yaml', '--seed', '3', '--out', 'regrun'], {
      cwd: dir.path,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/R7/);
  });
});
