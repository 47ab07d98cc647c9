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

  it('is refused for a run none of whose scenarios has the stand-in, repeated, or with --live', async () => {
    await writeFile(
      join(dir.path, 'cmd.yaml'),
      'name: cmd\nagent: { kind: command, task: t, argv: [node, -e, "1"] }\ngoal: { effects: {} }\n',
    );
    const none = await inProcess(['run', 'cmd.yaml', '--behaviour', 'careful'], { cwd: dir.path });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /--behaviour careful: no scenario of this run has the scripted stand-in.*cmd \(command agent\)/,
    );
    const twice = await inProcess(['run', 'order.yaml', '--behaviour', 'careful', '--behaviour', 'retries-blindly'], {
      cwd: dir.path,
    });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/--behaviour was given 2 times/);
    const live = await inProcess(['run', 'order.yaml', '--behaviour', 'careful', '--live'], { cwd: dir.path });
    expect(live.code).toBe(2);
    expect(live.stderr).toMatch(/--behaviour careful: not with --live or --record/);
  });
});
