/**
 * A YAML scenario with network latency, through the real CLI binary from a folder outside the
 * repo: the same seed gives the same report bytes, another seed other timings, Retry-After is
 * still honoured with both legs in the way, and a typo in `network` is refused with its path.
 * The first run goes through the binary; the others run the CLI's entry in this process
 * (./inProcess.ts), whose output and exit code are the binary's.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../src/core/index.js';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { trialFlags } from './trialFlags.js';

const SCENARIO = `name: email-over-a-slow-network
description: The mail API throttles the first send (429, Retry-After 2 s) behind a network with variance.
services: [email]
network:
  latency: { kind: normal, meanMs: 10, sdMs: 2 }      # both legs, every service
  tools:
    send_email:
      latency:
        response: { kind: lognormal, medianMs: 40, sigma: 0.5 }   # the request leg stays the default
faults:
  - match: { tool: send_email }
    fault: { kind: rate_limit, retryAfter: 2 }
    times: 1
agent:
  kind: scripted
  task: Send the welcome email to ada@example.com.
  plan:
    steps:
      - tool: send_email
        input: { messageId: welcome-ada, to: ada@example.com, subject: Welcome, body: Hello Ada }
        subject: email:welcome-ada
goal:
  effects: { email.sent: 1 }
`;

let dir: { path: string; cleanup: () => Promise<void> };
const cwd = (): string => dir.path;

beforeAll(async () => {
  dir = await tempDir('network');
  await writeFile(join(cwd(), 'slow.yaml'), SCENARIO);
  await writeFile(join(cwd(), 'typo.yaml'), SCENARIO.replace('    send_email:\n', '    send_mail:\n'));
  await writeFile(join(cwd(), 'bad-sd.yaml'), SCENARIO.replace('sdMs: 2', 'sdMs: -2'));
});
afterAll(() => dir.cleanup());

const cli = (args: readonly string[]) => inProcess(args, { cwd: cwd() });
const runArgs = (seed: number, out: string): string[] => [
  'run',
  'slow.yaml',
  ...trialFlags({ k: 4, seed, reporters: ['json'], out }),
];
const history = async (seed: number): Promise<HistoryEvent[]> => {
  const r = await cli(['replay', 'slow.yaml', '--seed', String(seed), '--trial', '0', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as HistoryEvent[];
};

describe('network latency from a YAML scenario, through the CLI', () => {
  it('gives the same report bytes for the same seed, and other timings for another seed', async () => {
    const [a, b, c] = await Promise.all([
      faultline(runArgs(1, 'a'), { cwd: cwd() }),
      cli(runArgs(1, 'b')),
      cli(runArgs(2, 'c')),
    ]);
    for (const r of [a, b, c]) expect(r.code, r.stderr).toBe(0);
    const read = (out: string) => readFile(join(cwd(), out, 'faultline.json'), 'utf8');
    const head = (text: string): string => text.slice(0, text.indexOf('"wallClock"'));
    const [ja, jb, jc] = await Promise.all([read('a'), read('b'), read('c')]);
    expect(head(ja)).toBe(head(jb));
    const [h1, h2] = await Promise.all([history(1), history(2)]);
    const times = (h: HistoryEvent[]) => h.map((e) => `${e.type}@${e.t}`);
    expect(times(h1)).not.toEqual(times(h2));
    expect(head(jc)).not.toBe(head(ja));
  });

  it('records both legs of every request, and the request reaches the service one leg after it left', async () => {
    const h = await history(1);
    const attempts = h.filter((e) => e.type === 'attempt');
    const deliveries = h.filter((e) => e.type === 'delivery');
    const responses = h.filter((e) => e.type === 'response');
    expect(responses).toHaveLength(2);
    responses.forEach((r, i) => {
      const legs = r.legs!;
      expect(legs.request).toBeGreaterThan(0);
      expect(legs.response).toBeGreaterThan(0);
      // The 429 is not delivered to the service's logic; the resend is, one request leg after it left.
      expect(r.t - attempts[i]!.t).toBe(legs.request + legs.response!);
    });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.t - attempts[1]!.t).toBe(responses[1]!.legs!.request);
  });

  it('still honours Retry-After: the resend leaves at least 2 s after the 429 arrived, and every checker passes', async () => {
    const h = await history(1);
    const throttled = h.find((e) => e.type === 'response' && e.status === 429)!;
    const resend = h.filter((e) => e.type === 'attempt')[1]!;
    expect(resend.t - throttled.t).toBeGreaterThanOrEqual(2000);
    const replay = await cli(['replay', 'slow.yaml', '--seed', '1']);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(/response to req-1: error 429 .*\[network \d+ms out, \d+ms back\]/);
    expect(replay.stdout).not.toMatch(/✗/);
  });

  it('is in the JSON Schema `faultline schema` prints, every distribution with its fields', async () => {
    const r = await cli(['schema']);
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout) as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
      $defs: Record<string, { oneOf?: { properties: { kind: { const: string } } & Record<string, unknown> }[] }>;
    };
    expect(Object.keys(schema.properties['network']!.properties!)).toEqual(['latency', 'services', 'tools']);
    const kinds = schema.$defs['Distribution']!.oneOf!.map((o) => [
      o.properties.kind.const,
      Object.keys(o.properties).filter((k) => k !== 'kind'),
    ]);
    expect(kinds).toEqual([
      ['constant', ['ms']],
      ['uniform', ['minMs', 'maxMs']],
      ['normal', ['meanMs', 'sdMs']],
      ['lognormal', ['medianMs', 'mu', 'sigma']],
      ['exponential', ['meanMs']],
    ]);
  });

  it('refuses a tool name that is not in the scenario, and a negative sd, naming the file and the path', async () => {
    const [typo, sd] = await Promise.all([cli(['run', 'typo.yaml']), cli(['run', 'bad-sd.yaml'])]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('typo.yaml');
    expect(typo.stderr).toMatch(
      /network\.tools\.send_mail: "send_mail": no such tool in this scenario's services \(known: send_email/,
    );
    expect(sd.code).toBe(2);
    expect(sd.stderr).toMatch(
      /bad-sd\.yaml.*\n.*network\.latency\.sdMs: sdMs is a standard deviation: it cannot be negative/,
    );
    for (const r of [typo, sd]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
