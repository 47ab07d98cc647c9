/**
 * `faultline run --live` against the fake provider (test/live/fakeModelServer.ts) on 127.0.0.1:
 * TRIALS trials (default 240) of 3 model calls each, LATENCY_MS per answer (default 300), with
 * `--max-connections` 1, 8 and 32 (CONNECTIONS=1,8,32), each beside its ideal (calls × latency /
 * connections); then faultline's own cost per model call (latency 0, one connection) beside a
 * bare fetch loop against the same server (OVERHEAD_TRIALS, default 60). Prints the figures;
 * asserts nothing.
 *   npm run bench live            (CONNECTIONS=32,8,1 to see the quick ones first)
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN } from '../test/cli/faultline.js';
import { userProject } from '../test/cli/userProject.js';
import { startFakeModelServer, type FakeModelServer } from '../test/live/fakeModelServer.js';

const TRIALS = Number(process.env['TRIALS'] ?? 240);
const LATENCY_MS = Number(process.env['LATENCY_MS'] ?? 300);
const CONNECTIONS = (process.env['CONNECTIONS'] ?? '1,8,32').split(',').map(Number);
const CALLS_PER_TRIAL = 3;
/** Trials of the overhead measurement (OVERHEAD_TRIALS): fewer, since they run on one connection without latency. */
const OVERHEAD_TRIALS = Number(process.env['OVERHEAD_TRIALS'] ?? 60);
/** Worker threads at most (MAX_WORKERS): each loads the agent and its SDK, and 32 of them at once outlast the loader's 30 s on a small, busy machine. */
const MAX_WORKERS = Number(process.env['MAX_WORKERS'] ?? 8);
const KEY = 'sk-bench-0123456789';
const EXAMPLES = fileURLToPath(new URL('../scenarios/examples/', import.meta.url));

const scenario = (baseUrl: string): string => `name: bench-live
services: [${join(EXAMPLES, 'helpdesk/code/helpdesk.service.ts')}]
model: { api: openai, baseUrl: ${baseUrl}/v1 }
agent:
  kind: http
  task: Open two tickets about the printer that is on fire.
  module: ${join(EXAMPLES, 'sdk-agents/code/openaiAgent.ts')}
goal:
  effects: { ticket.opened: 2 }
  outcome: [completed]
`;

function cli(args: readonly string[], cwd: string): Promise<{ code: number | null; ms: number; stderr: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, OPENAI_API_KEY: KEY, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => resolve({ code, ms: performance.now() - started, stderr }));
  });
}

async function liveRun(
  server: FakeModelServer,
  connections: number,
  trials: number,
  out: string,
): Promise<{ ms: number; calls: number; passed: number; workers: number }> {
  const workers = Math.min(connections, trials, MAX_WORKERS);
  const project = await userProject('bench-live', { 'live.yaml': scenario(server.url) });
  try {
    const before = server.requests.length;
    const r = await cli(
      [
        'run',
        'live.yaml',
        '--live',
        '--k',
        String(trials),
        '--max-connections',
        String(connections),
        '--workers',
        String(workers),
        '--out',
        out,
        '--reporter',
        'json',
      ],
      project.path,
    );
    if (r.code !== 0 && r.code !== 1) throw new Error(`faultline exited ${String(r.code)}: ${r.stderr.slice(-2000)}`);
    const report = JSON.parse(await readFile(join(project.path, out, 'faultline.json'), 'utf8')) as {
      cells: { metrics: { successes: number } }[];
    };
    return { ms: r.ms, calls: server.requests.length - before, passed: report.cells[0]!.metrics.successes, workers };
  } finally {
    await project.cleanup();
  }
}

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `bench/live: ${TRIALS} trials × ${CALLS_PER_TRIAL} model calls, ${LATENCY_MS} ms per answer; ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log('connections | workers | wall     | ideal    | wall/ideal | most in flight | calls | passed');
for (const n of CONNECTIONS) {
  const server = await startFakeModelServer({ latencyMs: LATENCY_MS, tickets: CALLS_PER_TRIAL - 1 });
  const r = await liveRun(server, n, TRIALS, `out-${n}`);
  const ideal = (r.calls * LATENCY_MS) / n;
  console.log(
    `${String(n).padStart(11)} | ${String(r.workers).padStart(7)} | ${s(r.ms).padStart(8)} | ${s(ideal).padStart(8)} | ${(r.ms / ideal).toFixed(2).padStart(10)} | ${String(server.maxInFlight()).padStart(14)} | ${String(r.calls).padStart(5)} | ${r.passed}/${TRIALS}`,
  );
  await server.close();
}

// Overhead: no latency, one connection; a run of 1 trial gives the start-up to take away.
const fast = await startFakeModelServer({ latencyMs: 0, tickets: CALLS_PER_TRIAL - 1 });
const one = await liveRun(fast, 1, 1, 'out-one');
const all = await liveRun(fast, 1, OVERHEAD_TRIALS, 'out-all');
const perCall = (all.ms - one.ms) / (all.calls - one.calls);
const body = JSON.stringify({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Open two tickets about the printer that is on fire.' }],
});
const bareStart = performance.now();
for (let i = 0; i < all.calls; i++) {
  const res = await fetch(`${fast.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body,
  });
  await res.text();
}
const bare = (performance.now() - bareStart) / all.calls;
await fast.close();
console.log(`\nper model call, latency 0, one connection (${all.calls} calls; start-up of ${s(one.ms)} taken away):`);
console.log(`  faultline --live (whole trial: agent, interception, gateway, recording): ${perCall.toFixed(2)} ms`);
console.log(`  bare fetch loop against the same server:                                 ${bare.toFixed(2)} ms`);
console.log(
  `  faultline's own share:                                                   ${(perCall - bare).toFixed(2)} ms`,
);
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
