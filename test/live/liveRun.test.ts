/**
 * `faultline run --live` through the real binary, from a temp project, against the fake provider
 * (test/live/fakeModelServer.ts) on 127.0.0.1: concurrency within the connection limit, the
 * provider's own failures retried out of the agent's sight or counted as infra errors, gates that
 * fail closed, costs, --max-cost, and each live trial replayed offline from its recording.
 * The first run goes through the binary; the others run the CLI's entry in this process
 * (test/cli/inProcess.ts), which spares each a Node start.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { faultline } from '../cli/faultline.js';
import { inProcess } from '../cli/inProcess.js';
import { liveHarness, sdkAgentScenario } from './liveHarness.js';

const KEY = 'sk-live-test-0123456789abcdef';
const scenario = sdkAgentScenario;

interface Report {
  run: { trials: number; infraErrors?: number; interrupted: boolean; cost?: number; stopped?: unknown };
  gates: { passed: boolean; results: { gate: string; passed: boolean; actual: number | null }[] };
  cells: {
    status: string;
    metrics: {
      trials: number;
      successes: number;
      infraErrors?: number;
      passHat: number[];
      tokens: { input: number; output: number };
      cost?: number;
      intervals: { passHat: [number, number][] };
    };
    verdicts: { status: string; trials: number; end: { kind: string; message?: string } }[];
    trials: {
      index: number;
      status: string;
      recording?: string;
      cost?: number;
      model?: string;
      replay: string;
      history?: { type: string; tool?: string; status?: number }[];
    }[];
  }[];
}

const { serve, project, report: readReport } = liveHarness('live');
const report = (dir: string, out: string): Promise<Report> => readReport<Report>(dir, out);

async function everyFile(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
  return out;
}

describe('faultline run --live', () => {
  it('runs trials concurrently within --max-connections across workers, and never writes the key', async () => {
    // Each answer waits (up to 20 s) for a second request in flight: however unevenly the workers start, two overlap.
    const server = await serve({ latencyMs: 150, gather: { inFlight: 2, maxWaitMs: 20_000 } });
    const dir = await project({ 'agent.yaml': scenario('live-openai', server.url) });
    const r = await faultline(
      ['run', 'agent.yaml', '--live', '--k', '6', '--max-connections', '2', '--workers', '3', '--out', 'out'],
      { cwd: dir, env: { OPENAI_API_KEY: KEY } },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // 6 trials of 2 model calls, 3 workers: the limit of 2 is reached and never passed.
    expect(server.requests).toHaveLength(12);
    expect(server.maxInFlight()).toBe(2);
    expect(new Set(server.requests.map((q) => q.authorization))).toEqual(new Set([`Bearer ${KEY}`]));
    expect(r.stderr).toMatch(
      /live: 6\/6 trials, 0 model requests in flight \(most 2\), 0 retried, 0 infra errors, 1,440 tokens/,
    );
    const json = await report(dir, 'out');
    // gpt-4o-mini (the model the agent's requests name): 1,200 in at $0.15/M and 240 out at $0.60/M.
    expect(json.cells[0]!.metrics).toMatchObject({ trials: 6, successes: 6, tokens: { input: 1200, output: 240 } });
    expect(json.cells[0]!.metrics.cost).toBeCloseTo((1200 * 0.15 + 240 * 0.6) / 1e6, 12);
    for (const file of await everyFile(dir)) expect(await readFile(file, 'utf8'), file).not.toContain(KEY);
  });

  it("retries the provider's own 429s, 5xx and dropped connections out of the agent's sight, and counts what still fails as infra errors that fail the gates", async () => {
    const flaky = await serve({ seed: 5, errorRate: 0.4, errors: ['429', '503', 'drop'] });
    const dir = await project({ 'flaky.yaml': scenario('live-flaky', flaky.url) });
    const ok = await inProcess(
      ['run', 'flaky.yaml', '--live', '--k', '4', '--workers', '0', '--live-retries', '8', '--out', 'ok'],
      { cwd: dir, env: { OPENAI_API_KEY: KEY } },
    );
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(flaky.failures()).toBeGreaterThan(0);
    const okReport = await report(dir, 'ok');
    expect(okReport.cells[0]!.metrics).toMatchObject({ trials: 4, successes: 4 });
    expect(okReport.cells[0]!.metrics.infraErrors).toBeUndefined();
    // Each trial's recording holds only the answers the agent got: never the provider's failures.
    const recordings = (await everyFile(join(dir, 'ok', 'live'))).sort();
    expect(recordings).toHaveLength(4);
    for (const file of recordings) {
      const cassette = JSON.parse(await readFile(file, 'utf8')) as {
        trial: unknown;
        entries: { response: { status: number } }[];
      };
      expect(cassette.trial).toMatchObject({ scenario: 'live-flaky', config: 'rulebook' });
      expect(cassette.entries.map((e) => e.response.status)).toEqual([200, 200]);
    }
    await flaky.close();

    const down = await serve({ errorRate: 1, errors: ['503'] });
    await (await import('node:fs/promises')).writeFile(join(dir, 'down.yaml'), scenario('live-down', down.url));
    const failed = await inProcess(
      ['run', 'down.yaml', '--live', '--k', '2', '--workers', '0', '--live-retries', '1', '--out', 'down'],
      { cwd: dir, env: { OPENAI_API_KEY: KEY } },
    );
    expect(failed.code, failed.stdout + failed.stderr).toBe(1);
    expect(down.requests).toHaveLength(4);
    const json = await report(dir, 'down');
    expect(json.run).toMatchObject({ trials: 0, infraErrors: 2 });
    expect(json.cells[0]!.status).toBe('failed');
    expect(json.cells[0]!.verdicts).toEqual([
      expect.objectContaining({
        status: 'infra-error',
        trials: 2,
        end: { kind: 'infra_error', message: 'the model provider failed 2 times (1 retries); last: it answered 503' },
      }),
    ]);
    expect(json.gates.results.find((g) => g.gate === 'infra_errors<=0')).toMatchObject({ passed: false, actual: 2 });
    expect(failed.stdout).toContain('infra_errors<=0 failed: infra_errors = 2');
    const allowed = await inProcess(
      [
        'run',
        'down.yaml',
        '--live',
        '--k',
        '1',
        '--workers',
        '0',
        '--live-retries',
        '0',
        '--max-infra-errors',
        '1',
        '--gate',
        'duplicates==0',
        '--out',
        'allowed',
      ],
      { cwd: dir, env: { OPENAI_API_KEY: KEY } },
    );
    expect(allowed.code, allowed.stdout).toBe(0);
  });

  it("makes the model's own mistake on the provider's answer: a cut final text fires, and the agent reporting it done is caught", async () => {
    const server = await serve({});
    const cut = `${scenario('live-cut', server.url)}faults:
  - match: { tool: model:openai.chat.completions, call: 2 }
    fault: { kind: truncated, keep: 10, at: text }
    times: 1
`;
    const dir = await project({ 'cut.yaml': cut });
    const r = await inProcess(['run', 'cut.yaml', '--live', '--k', '1', '--workers', '0', '--out', 'cut'], {
      cwd: dir,
      env: { OPENAI_API_KEY: KEY },
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(server.requests).toHaveLength(2);
    const json = await report(dir, 'cut');
    const cell = json.cells[0]! as Report['cells'][number] & {
      metrics: { coverage: { trials: number; firings: number }[] };
      trials: { checks: { name: string; verdict: { message?: string } }[] }[];
    };
    // The rule fired: its lie was told on the provider's answer, not recorded as telling nothing.
    expect(cell.metrics.coverage.map((c) => [c.trials, c.firings])).toEqual([[1, 1]]);
    expect(cell.trials[0]!.checks.find((c) => c.name === 'model-mistakes')?.verdict.message).toMatch(
      /^the model's truncated answer to http-3 .*reported the task completed on it.*\(R20\)$/,
    );
    // The trial's recording keeps what the provider said, whole.
    const [recording] = await everyFile(join(dir, 'cut', 'live'));
    const entries = (JSON.parse(await readFile(recording!, 'utf8')) as { entries: { response: { body: unknown } }[] })
      .entries;
    expect(JSON.stringify(entries[1]!.response.body)).toContain('Ticket');
  });

  it("measures a stochastic model's pass^k with intervals that cover its true rate, and replays a failing live trial offline with the same history", async () => {
    const server = await serve({ seed: 3, callProbability: 0.5 });
    const dir = await project({ 'coin.yaml': scenario('live-coin', server.url) });
    const r = await inProcess(['run', 'coin.yaml', '--live', '--k', '10', '--workers', '0', '--out', 'out'], {
      cwd: dir,
      env: { OPENAI_API_KEY: KEY },
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const json = await report(dir, 'out');
    const m = json.cells[0]!.metrics;
    expect(m.successes).toBeGreaterThan(0);
    expect(m.successes).toBeLessThan(10);
    // pass^j of a model that succeeds half the time is 0.5^j: each interval covers it, and none is the certainty of 0 or 1.
    expect(m.passHat).toHaveLength(10);
    m.intervals.passHat.forEach(([lower, upper], i) => {
      const truth = 0.5 ** (i + 1);
      expect(lower, `pass^${i + 1}`).toBeLessThanOrEqual(truth);
      expect(upper, `pass^${i + 1}`).toBeGreaterThanOrEqual(truth);
    });
    expect(m.passHat[0]).toBeGreaterThan(0);
    expect(m.passHat[0]).toBeLessThan(1);
    const failing = json.cells[0]!.trials.find((t) => t.status === 'failed')!;
    expect(failing.recording).toBe(
      join('out', 'live', 'live-coin', 'rulebook', `trial-${failing.index}.cassette.json`),
    );
    expect(failing.replay).toBe(
      `faultline replay ./coin.yaml --config rulebook --seed 1 --trial ${failing.index} --cassette ${failing.recording}`,
    );

    // The provider is gone: the replay answers from the trial's recording, and the history is the run's.
    await server.close();
    const args = failing.replay.split(' ').slice(1);
    const replayed = await inProcess([...args, '--json'], { cwd: dir, env: { OPENAI_API_KEY: '' } });
    expect(replayed.code, replayed.stderr).toBe(1);
    expect(JSON.parse(replayed.stdout)).toEqual(failing.history);
  });
});
