import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { ORDER_AGENT_YAML } from './orderAgent.js';
import { trialFlags } from './trialFlags.js';
import { liveHarness, sdkAgentScenario } from '../live/liveHarness.js';
import { PRICED_CONFIG } from '../live/pricedRun.js';
import { userProject } from './userProject.js';

/**
 * Bad input on issue 23's surfaces, through the real binary from a user project: the live flags
 * (`--max-connections`, `--max-infra-errors`, `--live-retries`, `--max-cost`) given values out of
 * their range or no number at all, the live-only ones given without `--live`, and bad entries of
 * the `prices` table in faultline.config.ts. Each is refused with exit 2 before the first trial,
 * naming the flag (or the file and the path in it) and what was expected, with no stack.
 * The bad values are drawn by fast-check from a fixed seed, so every run tries the same ones.
 * The first case runs the real binary; the others run the CLI's entry in this process
 * (./inProcess.ts), whose output and exit code are the binary's.
 */

interface Case {
  readonly cls: string;
  readonly args: readonly string[];
  readonly config?: string;
  readonly stderr: RegExp;
}

const SEED = 23;
const draw = <T>(arb: fc.Arbitrary<T>, n: number): T[] => fc.sample(arb, { seed: SEED, numRuns: n });
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Not a whole number: fractions, words, signs, exponents, blanks. */
const notWhole = fc.oneof(
  fc
    .double({ min: 0.01, max: 99, noNaN: true })
    .filter((d) => !Number.isInteger(d))
    .map(String),
  fc.integer({ min: -1000, max: -1 }).map(String),
  fc.constantFrom('', ' ', 'NaN', 'Infinity', '1e3', '0x10', 'eight', '+3', '3 4'),
);
/** Not an amount above 0. */
const notAmount = fc.oneof(
  fc.double({ min: -1e6, max: 0, noNaN: true }).map(String),
  fc.constantFrom('', 'NaN', 'Infinity', '-Infinity', 'five', '$5', '1e999', '0'),
);

const flagCases: Case[] = [
  ...draw(fc.oneof(notWhole, fc.constantFrom('0', '1025', '99999999999')), 4).map((v) => ({
    flag: '--max-connections <n>',
    v,
    live: true,
  })),
  ...draw(fc.oneof(notWhole, fc.constantFrom('21', '1000')), 3).map((v) => ({
    flag: '--live-retries <n>',
    v,
    live: true,
  })),
  ...draw(notWhole, 2).map((v) => ({ flag: '--max-infra-errors <n>', v, live: true })),
  ...draw(notAmount, 3).map((v) => ({ flag: '--max-cost <amount>', v, live: false })),
].map(({ flag, v, live }) => ({
  cls: `${flag.split(' ')[0]!}=${JSON.stringify(v)}`,
  args: ['run', 's.yaml', '--k', '1', ...(live ? ['--live'] : []), `${flag.split(' ')[0]!}=${v}`],
  stderr: new RegExp(`option '${escape(flag)}' argument '${escape(v)}' is invalid\\. expected `),
}));

const liveOnly: Case[] = (
  ['--max-connections=4', '--max-infra-errors=1', '--live-retries=2', '--max-cost=5'] as const
).map((a) => ({
  cls: `${a} without --live`,
  args: ['run', 's.yaml', '--k', '1', a],
  stderr: new RegExp(`${escape(a.split('=')[0]!)}: only with --live`),
}));

/** A price entry wrong in one way, and the path the refusal must name. */
const badPrice = fc.oneof(
  fc
    .record({
      model: fc.constantFrom('gpt-4o', 'my-llama'),
      field: fc.constantFrom('input', 'output', 'cachedInput'),
      value: fc.constantFrom('-1', '"2.5"', 'null', '[]'),
    })
    .map(({ model, field, value }) => {
      const entry = { input: '1', output: '2', [field]: value };
      return {
        text: `'${model}': { ${Object.entries(entry)
          .map(([k, x]) => `${k}: ${x}`)
          .join(', ')} }`,
        path: `prices\\.${escape(model)}\\.${field}: `,
      };
    }),
  fc
    .constantFrom('gpt-4o', 'qwen2')
    .map((model) => ({ text: `'${model}': { input: 1 }`, path: `prices\\.${escape(model)}\\.output: ` })),
  fc.constantFrom('perToken', 'currency').map((key) => ({
    text: `'gpt-4o': { input: 1, output: 2, ${key}: 3 }`,
    path: `prices\\.gpt-4o: Unrecognized key: "${key}"`,
  })),
  fc.constantFrom('3', "'cheap'", 'true').map((value) => ({ text: `'gpt-4o': ${value}`, path: 'prices\\.gpt-4o: ' })),
);
const priceCases: Case[] = draw(badPrice, 5).map(({ text, path }) => ({
  cls: `prices: { ${text} }`,
  args: ['run', 's.yaml', '--k', '1'],
  config: `export default { prices: { ${text} } };\n`,
  stderr: new RegExp(`faultline\\.config\\.ts: invalid faultline config:\\n\\s+- ${path}`),
}));

// Drawn values repeat (fast-check favours its edge cases): each distinct case once.
const CASES = [...new Map([...flagCases, ...liveOnly, ...priceCases].map((c) => [c.cls, c])).values()];

let project: { path: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  project = await userProject('fuzz-live', {});
});
afterAll(async () => {
  await project.cleanup();
});

describe('bad input on the live flags and the price table', () => {
  CASES.forEach((c, i) => {
    it(`${c.cls}: exit 2, named`, async () => {
      const dir = join(project.path, `case-${i}`);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 's.yaml'), `name: s\n${ORDER_AGENT_YAML}`);
      if (c.config !== undefined) await writeFile(join(dir, 'faultline.config.ts'), c.config);
      const options = { cwd: dir, env: { OPENAI_API_KEY: 'sk-unused' } };
      const r = await (i === 0 ? faultline(c.args, options) : inProcess(c.args, options));
      expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(2);
      expect(r.stderr).toMatch(c.stderr);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      // Refused before the first trial: no report was written.
      expect(r.stdout).not.toMatch(/trials? \(/);
    });
  });
});

// Issue 43 #7: the limit itself, not only its flag's values. At a drawn limit, price per answer (a drawn number of
// million input tokens at $0.20 a million) and number of connections, in process: no request goes out once the
// answers priced so far and those in flight (at the dearest price seen) would pass the limit. The first round goes
// out before any price is known, so the bound is the larger of the limit and that round, plus one answer.
describe('issue 43 #7: --max-cost is a hard limit at drawn limits, prices and connections', () => {
  const { serve, project } = liveHarness('fuzz-max-cost');
  const draws = fc.sample(
    fc.record({
      limit: fc.constantFrom(0.3, 0.5, 0.9, 1.4),
      millions: fc.integer({ min: 1, max: 4 }),
      connections: fc.integer({ min: 1, max: 3 }),
    }),
    { numRuns: 3, seed: 43 },
  );
  it.each(draws)(
    'limit $limit, $millions M tokens an answer, $connections connections: nothing past it',
    async ({ limit, millions, connections }) => {
      const price = 0.2 * millions;
      const server = await serve({ latencyMs: 20, usage: { input: millions * 1_000_000, output: 0 } });
      const dir = await project({
        'priced.yaml': sdkAgentScenario('priced', server.url, 'openai', '  name: house-llm\n'),
        'faultline.config.ts': PRICED_CONFIG,
      });
      const args = ['run', 'priced.yaml', '--live', '--workers', '1', '--max-connections', String(connections)];
      const r = await inProcess([...args, '--max-cost', String(limit), ...trialFlags({ k: 4, out: 'out' })], {
        cwd: dir,
        env: { OPENAI_API_KEY: 'sk-live-test-0a1b2c3d4e5f6789' },
      });
      const spent = server.requests.length * price;
      expect(spent, r.stdout + r.stderr).toBeLessThanOrEqual(Math.max(limit, connections * price) + price + 1e-9);
      // Four trials of two answers each cost more than any limit drawn: the run stopped there and said so.
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`faultline: stopped at --max-cost ${limit} \\(\\$\\d+\\.\\d\\d spent\\)`));
    },
    60_000,
  );
});
