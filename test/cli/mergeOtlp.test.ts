/**
 * `faultline merge --reporter otlp`, in process: the shards' reports merged give the traces of the
 * whole run, byte for byte, and a trace of the merged file imports back as a scenario (`from-trace`).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('merge-otlp');
});
afterAll(async () => {
  await dir.cleanup();
});

const run = (args: readonly string[]) => inProcess(args, { cwd: dir.path });
const read = (...parts: string[]): Promise<string> => readFile(join(dir.path, ...parts), 'utf8');
const RUN = [
  'run',
  'order-partial-write-no-idempotency',
  'read-timeout-retry',
  '--config',
  'naive',
  '--k',
  '3',
  '--seed',
  '5',
];

describe('merge --reporter otlp', () => {
  it("writes the unsharded run's traces, byte for byte, and its traces import back", async () => {
    const whole = await run([...RUN, '--reporter', 'json', '--reporter', 'otlp', '--out', 'whole']);
    expect(whole.code, whole.stderr).toBe(1);
    for (const i of [1, 2])
      expect((await run([...RUN, '--shard', `${i}/2`, '--reporter', 'json', '--out', `shard-${i}`])).code).toBe(1);
    const merged = await run([
      'merge',
      'shard-2/faultline.json',
      'shard-1/faultline.json',
      '--reporter',
      'otlp',
      '--out',
      'merged',
    ]);
    expect(merged.code, merged.stderr).toBe(1);
    const traces = await read('merged', 'otel-traces.json');
    expect(traces).toBe(await read('whole', 'otel-traces.json'));

    // Round trip: one failing trial's trace back in, as the scenario it ran.
    const body = JSON.parse(traces) as {
      resourceSpans: { scopeSpans: { spans: { traceId: string; name: string; status: { code: number } }[] }[] }[];
    };
    const spans = body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    const failed = spans.find((s) => s.name === 'trial order-partial-write-no-idempotency' && s.status.code === 2)!;
    const imported = await run([
      'from-trace',
      'merged/otel-traces.json',
      '--trace-id',
      failed.traceId,
      '--out',
      'again.yaml',
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    const scenario = parse(await read('again.yaml')) as {
      faults: unknown;
      agent: { plan: { steps: { tool: string }[] } };
    };
    expect(scenario.faults).toEqual([
      { match: { tool: 'create_order', call: 1, attempt: 1 }, fault: { kind: 'partial_write', lostAs: 'timeout' } },
    ]);
    expect(scenario.agent.plan.steps.map((s) => s.tool)).toEqual(['create_order']);
  });
});
