import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import { everyOutput, type EveryOutput } from './everyOutput.js';
import { tempDir, type Finished } from './faultline.js';
import { leakingScenario } from './leakingScenario.js';

/**
 * R13 end to end: one declared secret planted everywhere it can flow (the task, a tool's input
 * and so its output, a fault's error message, the agent's final message, an HTTP dump in an
 * error, the headers of a real intercepted HTTP request), plus credentials nobody declared (a
 * bearer token and an `sk-` key in those headers and dumps). Every byte of every output is
 * searched: none may hold any of them.
 */

const SECRET = 'PLANTED-s3cr3t-4f9c2e';
const UNDECLARED_BEARER = 'eyJPLANTEDbearer.payload.signature';
const UNDECLARED_KEY = 'sk-proj-PLANTEDundeclared0123456789';
const NEEDLES = [SECRET, UNDECLARED_BEARER, UNDECLARED_KEY, 'PLANTED'];

const SCRIPTED = leakingScenario('leak-scripted', SECRET);

// No fault here: the agent completes and says its final message.
const FINAL = `name: leak-final
secrets: [${SECRET}]
agent:
  kind: scripted
  task: Create an order
  plan:
    finalMessage: Done, used ${SECRET}
    steps:
      - name: order
        tool: create_order
        input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1500 }
`;

const FUNCTION = `export default {
  name: 'leak-function',
  secrets: ['${SECRET}'],
  agent: {
    kind: 'function',
    task: 'Pay with ${SECRET}',
    fn: async ({ tools }) => {
      await tools.create_order({ clientReference: '${SECRET}', item: 'book', quantity: 1, amountCents: 1500 });
      const dump = JSON.stringify({ method: 'POST', url: 'https://api.pay.test/charge', headers: { Authorization: 'Bearer ${UNDECLARED_BEARER}', 'x-api-key': '${UNDECLARED_KEY}', 'x-account': '${SECRET}' } });
      throw new Error('payment API failed: ' + dump);
    },
  },
};
`;

// An http agent sends the secret in real request headers to a route nobody serves: nock's
// unhandled-request error (which prints the request's headers) becomes its final message.
const HTTP_SCENARIO = `name: leak-http
secrets: [${SECRET}]
http: { adapter: nock }
agent:
  kind: http
  task: Create an order
  module: ./leak-agent.ts
`;
const HTTP_AGENT = `export default async ({ services }) => {
  let dump = '';
  try {
    await fetch(services.orders.baseUrl + '/no-such-route', {
      method: 'POST',
      headers: { authorization: 'Bearer ${SECRET}', 'x-api-key': '${UNDECLARED_KEY}', 'x-forwarded-auth': 'Bearer ${UNDECLARED_BEARER}', 'content-type': 'application/json' },
      body: JSON.stringify({ account: '${SECRET}' }),
    });
  } catch (e) {
    dump = String(e.cause?.message ?? e.message);
  }
  return { outcome: 'failed', message: 'orders API refused: ' + dump };
};
`;

let dir: Awaited<ReturnType<typeof tempDir>>;
let run: Finished;
let compare: Finished;
let replays: EveryOutput['replays'];

beforeAll(async () => {
  dir = await tempDir('secrets');
  ({ run, compare, replays } = await everyOutput(
    dir.path,
    {
      'leak-scripted.yaml': SCRIPTED,
      'leak-function.ts': FUNCTION,
      'leak-final.yaml': FINAL,
      'leak-http.yaml': HTTP_SCENARIO,
      'leak-agent.ts': HTTP_AGENT,
    },
    ['leak-scripted.yaml', 'leak-final.yaml', 'leak-function.ts', 'leak-http.yaml'],
  ));
});
afterAll(() => dir.cleanup());

function clean(what: string, bytes: string): void {
  for (const needle of NEEDLES) expect(bytes.includes(needle), `${what} holds ${needle}`).toBe(false);
}

describe('no secret in any output', () => {
  it('the runs ran and the secrets checker saw the secret flow, and says where, masked', async () => {
    expect(run.code, run.stderr).toBe(1);
    expect(compare.code, compare.stderr).toBe(1);
    const report = parseJsonReport(await readFile(join(dir.path, 'run', 'faultline.json'), 'utf8'));
    expect(report.cells.map((c) => c.scenario)).toEqual(['leak-scripted', 'leak-final', 'leak-function', 'leak-http']);
    for (const cell of report.cells) {
      for (const trial of cell.trials) {
        const verdict = trial.checks.find((c) => c.name === 'secrets')?.verdict;
        expect(verdict?.valid, `${cell.scenario} trial ${trial.index}`).toBe(false);
        if (verdict?.valid === false) expect(verdict.message).toMatch(/secret #0 \(PL…\) appears in event #\d+ \(\w+/);
      }
    }
    expect(replays).toHaveLength(4);
  });

  it('console: stdout and stderr of run, compare and replay (text and --json)', () => {
    for (const [what, r] of [
      ['run', run],
      ['compare', compare],
      ...replays.flatMap(
        (p, i) =>
          [
            [`replay ${i}`, p.text],
            [`replay ${i} --json`, p.json],
          ] as const,
      ),
    ] as const) {
      expect(r.stderr).not.toMatch(/crashed/);
      clean(`${what} stdout`, r.stdout);
      clean(`${what} stderr`, r.stderr);
    }
    // The redacted places are there: what flowed was replaced, not dropped.
    const histories = replays.map((p) => p.json.stdout).join('\n');
    expect(histories).toContain('[REDACTED]');
    expect(histories).toContain('Bearer [REDACTED]');
    // The HTTP dump came through, its credential headers redacted.
    expect(histories).toContain('orders API refused: Nock: No match for request {');
    expect(histories).toContain('\\"authorization\\": \\"[REDACTED]\\"');
    for (const p of replays) expect(() => JSON.parse(p.json.stdout) as unknown).not.toThrow();
  });

  it('every report file: faultline.json, junit.xml, summary.md, compare.html, and both step summaries', async () => {
    const files: string[] = [];
    for (const out of ['run', 'compare']) for (const f of await readdir(join(dir.path, out))) files.push(join(out, f));
    files.push('summary-run.md', 'summary-compare.md');
    expect(files.sort()).toEqual(
      [
        'compare/compare.html',
        'compare/faultline.json',
        'compare/junit.xml',
        'compare/summary.md',
        'run/faultline.json',
        'run/junit.xml',
        'run/summary.md',
        'summary-compare.md',
        'summary-run.md',
      ].sort(),
    );
    for (const f of files) {
      const bytes = await readFile(join(dir.path, f), 'latin1');
      expect(bytes.length, f).toBeGreaterThan(0);
      clean(f, bytes);
    }
    // The JSON report carries the failing trials' full histories: the secret's places show redacted.
    const json = await readFile(join(dir.path, 'run', 'faultline.json'), 'utf8');
    expect(json).toContain(`card declined for account [REDACTED]`);
    expect(json).toContain('Done, used [REDACTED]');
    expect(json).toContain('"clientReference":"[REDACTED]"'.replace(/"/g, '\\"'));
  });
});
