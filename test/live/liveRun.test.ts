/**
 * `faultline run --live` through the real binary, from a temp project, against the fake provider
 * (test/live/fakeModelServer.ts) on 127.0.0.1: concurrency within the connection limit, the
 * provider's own failures retried out of the agent's sight or counted as infra errors, gates that
 * fail closed, costs, --max-cost, and each live trial replayed offline from its recording.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { faultline } from '../cli/faultline.js';
import { userProject } from '../cli/userProject.js';
import { startFakeModelServer, type FakeModelOptions, type FakeModelServer } from './fakeModelServer.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/', import.meta.url));
const KEY = 'sk-live-test-0123456789abcdef';

const scenario = (name: string, baseUrl: string, api: 'openai' | 'anthropic' = 'openai', extra = ''): string => `name: ${name}
services: [${join(EXAMPLES, 'helpdesk/code/helpdesk.service.ts')}]
model:
  api: ${api}
  baseUrl: ${baseUrl}
${extra}agent:
  kind: http
  task: Open a ticket about the printer that is on fire.
  module: ${join(EXAMPLES, `sdk-agents/code/${api === 'openai' ? 'openaiAgent' : 'anthropicAgent'}.ts`)}
goal:
  effects: { ticket.opened: 1 }
  outcome: [completed]
`;

interface Report {
  run: { trials: number; infraErrors?: number; interrupted: boolean; cost?: number; stopped?: unknown };
  gates: { passed: boolean; results: { gate: string; passed: boolean; actual: number | null }[] };
  cells: {
    status: string;
    metrics: { trials: number; successes: number; infraErrors?: number; passHat: number[]; tokens: { input: number; output: number }; cost?: number; intervals: { passHat: [number, number][] } };
    verdicts: { status: string; trials: number; end: { kind: string; message?: string } }[];
    trials: { index: number; status: string; recording?: string; cost?: number; model?: string; replay: string; history?: { type: string; tool?: string; status?: number }[] }[];
  }[];
}

const servers: FakeModelServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
async function serve(options: FakeModelOptions): Promise<FakeModelServer> {
  const s = await startFakeModelServer(options);
  servers.push(s);
  return s;
}
async function project(files: Record<string, string>): Promise<string> {
  const dir = await userProject('live', files);
  cleanups.push(dir.cleanup);
  return dir.path;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await Promise.all(cleanups.map((c) => c()));
});

const report = async (dir: string, out: string): Promise<Report> => JSON.parse(await readFile(join(dir, out, 'faultline.json'), 'utf8')) as Report;

async function everyFile(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
  return out;
}

describe('faultline run --live', () => {
  it('runs trials concurrently within --max-connections across workers, and never writes the key', async () => {
    const server = await serve({ latencyMs: 150 });
    const dir = await project({ 'agent.yaml': scenario('live-openai', server.url) });
    const r = await faultline(['run', 'agent.yaml', '--live', '--k', '6', '--max-connections', '2', '--workers', '3', '--out', 'out'], { cwd: dir, env: { OPENAI_API_KEY: KEY } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // 6 trials of 2 model calls, 3 workers: the limit of 2 is reached and never passed.
    expect(server.requests).toHaveLength(12);
    expect(server.maxInFlight()).toBe(2);
    expect(new Set(server.requests.map((q) => q.authorization))).toEqual(new Set([`Bearer ${KEY}`]));
    expect(r.stderr).toMatch(/live: 6\/6 trials, 0 model requests in flight \(most 2\), 0 retried, 0 infra errors, 1,440 tokens/);
    const json = await report(dir, 'out');
    // gpt-4o-mini (the model the agent's requests name): 1,200 in at $0.15/M and 240 out at $0.60/M.
    expect(json.cells[0]!.metrics).toMatchObject({ trials: 6, successes: 6, tokens: { input: 1200, output: 240 } });
    expect(json.cells[0]!.metrics.cost).toBeCloseTo((1200 * 0.15 + 240 * 0.6) / 1e6, 12);
    for (const file of await everyFile(dir)) expect(await readFile(file, 'utf8'), file).not.toContain(KEY);
  }, 240_000);
});
