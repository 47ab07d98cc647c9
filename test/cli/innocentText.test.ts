import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyOutput, type EveryOutput } from './everyOutput.js';
import { tempDir, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';

/**
 * R13's other half (the twin of secrets.test.ts): redaction hides secrets, not words. Texts that
 * hold "plan", "basic", "token", "secret", "password" as ordinary words, paths ending in `token`
 * or `passwd`, are planted everywhere they can flow (an agent's final message, a tool's input, a
 * fault's message, a thrown error, faultline's own messages about flags and paths); every
 * output must show them as written, and none may hold `[REDACTED]`.
 */

const MESSAGE = 'Chose the basic plan; refresh-token: rotated ok';
const WORDS = 'keep the password secret: the token is a word, the secret plan is basic';
const PATH = '/srv/app/config/token';
const FAULT = 'the password reset token secret: refused for the basic plan';
const THROWN = 'could not read /etc/passwd: password: expected a file, token: none';
const INNOCENT = [MESSAGE, WORDS, PATH, FAULT, THROWN];

// No fault on the final message's way: the agent completes and says it; the goal (two orders) is unmet.
const FINAL = `name: innocent-final
agent:
  kind: scripted
  task: Create an order
  plan:
    finalMessage: "${MESSAGE}"
    steps:
      - name: order
        tool: create_order
        input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1500 }
goal:
  effects: { order.created: 2 }
`;

const SCRIPTED = `name: innocent-scripted
faults:
  - match: { tool: create_order }
    times: 1
    fault: { kind: rejected, message: "${FAULT}" }
agent:
  kind: scripted
  task: "${WORDS}"
  plan:
    steps:
      - name: order
        tool: create_order
        input: { clientReference: "${PATH}", item: "${WORDS}", quantity: 1, amountCents: 1500 }
goal:
  effects: { order.created: 1 }
`;

const FUNCTION = `export default {
  name: 'innocent-function',
  agent: {
    kind: 'function',
    task: ${JSON.stringify(MESSAGE)},
    fn: async ({ tools }) => {
      await tools.create_order({ clientReference: ${JSON.stringify(PATH)}, item: ${JSON.stringify(WORDS)}, quantity: 1, amountCents: 1500 });
      throw new Error(${JSON.stringify(THROWN)});
    },
  },
};
`;

let dir: Awaited<ReturnType<typeof tempDir>>;
let run: Finished;
let compare: Finished;
let replays: EveryOutput['replays'];
const outErrors: { path: string; run: Finished }[] = [];

beforeAll(async () => {
  dir = await tempDir('innocent');
  const cwd = dir.path;
  await mkdir(join(cwd, 'files'));
  for (const name of ['token', 'secret', 'api_key', 'passwd'])
    await writeFile(join(cwd, 'files', name), 'a file, not a folder\n');
  ({ run, compare, replays } = await everyOutput(
    cwd,
    { 'innocent-scripted.yaml': SCRIPTED, 'innocent-function.ts': FUNCTION, 'innocent-final.yaml': FINAL },
    ['innocent-scripted.yaml', 'innocent-final.yaml', 'innocent-function.ts'],
  ));
  // faultline's own messages about a flag's path: `--out` onto a file.
  for (const path of [
    '/etc/passwd',
    join(cwd, 'files', 'token'),
    join(cwd, 'files', 'secret'),
    join(cwd, 'files', 'api_key'),
    join(cwd, 'files', 'passwd'),
  ]) {
    outErrors.push({
      path,
      // Refused before any trial: the CLI's entry in this process (./inProcess.ts), the same code as the binary's.
      run: await inProcess(['run', 'innocent-scripted.yaml', '--k', '1', '--out', path], { cwd }),
    });
  }
});
afterAll(() => dir.cleanup());

describe('innocent text reaches every output as written', () => {
  it('the runs failed as planned (the goal unmet, the agent threw)', () => {
    expect(run.code, run.stderr).toBe(1);
    expect(compare.code, compare.stderr).toBe(1);
    expect(replays).toHaveLength(3);
  });

  it('console: run, compare, replay (text and --json) hold no [REDACTED] and show the texts', () => {
    const consoles: [string, Finished][] = [
      ['run', run],
      ['compare', compare],
      ...replays.flatMap((p, i): [string, Finished][] => [
        [`replay ${i}`, p.text],
        [`replay ${i} --json`, p.json],
      ]),
    ];
    for (const [what, r] of consoles) {
      expect(r.stderr).not.toMatch(/crashed/);
      expect(`${r.stdout}\n${r.stderr}`, what).not.toContain('[REDACTED]');
    }
    // The replays print the full histories: every planted text is there, as JSON spells it.
    const histories = replays.map((p) => p.json.stdout).join('\n');
    for (const text of INNOCENT) expect(histories, text).toContain(JSON.stringify(text).slice(1, -1));
    const texts = replays.map((p) => p.text.stdout + p.text.stderr).join('\n');
    expect(texts).toContain(MESSAGE);
    expect(texts).toContain(THROWN);
  });

  it('every report file holds no [REDACTED] and keeps the texts', async () => {
    const files: string[] = [];
    for (const out of ['run', 'compare']) for (const f of await readdir(join(dir.path, out))) files.push(join(out, f));
    files.push('summary-run.md');
    expect(files.length).toBeGreaterThan(6);
    for (const f of files) {
      const bytes = await readFile(join(dir.path, f), 'utf8');
      expect(bytes.length, f).toBeGreaterThan(0);
      expect(bytes.includes('[REDACTED]'), `${f} holds [REDACTED]`).toBe(false);
    }
    const json = await readFile(join(dir.path, 'run', 'faultline.json'), 'utf8');
    for (const text of INNOCENT) expect(json, text).toContain(JSON.stringify(text).slice(1, -1));
  });

  it("faultline's own messages about paths keep them whole: --out onto a file ending in passwd, token, secret, api_key", () => {
    for (const { path, run: r } of outErrors) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--out ${path}: expected a folder`);
      expect(r.stderr).not.toContain('[REDACTED]');
    }
  });
});
