import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { leakingScenario } from './leakingScenario.js';
import { userProject } from './userProject.js';

/**
 * `--reporter otlp` and `--otlp-endpoint`: once end to end through the binary to a local OTLP/HTTP receiver, the
 * variations in process (the same entry the binary calls).
 */

// The OTLP/JSON ExportTraceServiceRequest (opentelemetry-proto's JSON mapping), as far as these tests read it:
// ids as hex, 64-bit times as decimal strings, kinds and status codes as the proto's enum numbers.
const AnyValue = z.object({
  stringValue: z.string().optional(),
  intValue: z.union([z.number(), z.string()]).optional(),
  boolValue: z.boolean().optional(),
  doubleValue: z.number().optional(),
  arrayValue: z.object({ values: z.array(z.unknown()) }).optional(),
});
const KeyValue = z.object({ key: z.string(), value: AnyValue });
const Span = z.object({
  traceId: z.string().regex(/^[0-9a-f]{32}$/),
  spanId: z.string().regex(/^[0-9a-f]{16}$/),
  parentSpanId: z
    .string()
    .regex(/^([0-9a-f]{16})?$/)
    .optional(),
  name: z.string(),
  kind: z.number().int().min(0).max(5),
  startTimeUnixNano: z.string().regex(/^\d+$/),
  endTimeUnixNano: z.string().regex(/^\d+$/),
  attributes: z.array(KeyValue),
  events: z.array(z.object({ timeUnixNano: z.string(), name: z.string(), attributes: z.array(KeyValue) })),
  status: z.object({ code: z.number().int().min(0).max(2), message: z.string().optional() }),
});
const ExportTraceServiceRequest = z.object({
  resourceSpans: z.array(
    z.object({
      resource: z.object({ attributes: z.array(KeyValue) }),
      scopeSpans: z.array(z.object({ scope: z.object({ name: z.string() }), spans: z.array(Span) })),
    }),
  ),
});
type Span = z.infer<typeof Span>;

const spansOf = (text: string): Span[] =>
  ExportTraceServiceRequest.parse(JSON.parse(text)).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
const attr = (s: Span, key: string): unknown => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : undefined);
};

/** A local OTLP/HTTP receiver: it keeps each POST and answers `status`. */
async function receiver(
  status: number,
): Promise<{ url: string; posts: { path: string; type: string; body: string }[]; close: () => Promise<void> }> {
  const posts: { path: string; type: string; body: string }[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', type: req.headers['content-type'] ?? '', body });
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(status === 200 ? '{}' : '{"message":"collector down"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, posts, close: () => new Promise((r) => server.close(() => r())) };
}

const SCENARIO = 'order-partial-write-no-idempotency';

it('run --reporter otlp --otlp-endpoint: the binary writes otel-traces.json and posts the same body to /v1/traces', async () => {
  const dir = await tempDir('otlp-e2e');
  const collector = await receiver(200);
  try {
    const done = await faultline(
      ['run', SCENARIO, '--config', 'naive', '--k', '2', '--reporter', 'otlp', '--otlp-endpoint', collector.url],
      { cwd: dir.path },
    );
    // The naive configuration duplicates the order: the gates fail (1), the export does not.
    expect([done.code, done.stderr]).toEqual([1, expect.not.stringContaining('--otlp-endpoint')]);
    expect(done.stdout).toContain(`traces: sent to ${collector.url}/v1/traces (200)`);
    const file = await readFile(join(dir.path, 'reports', 'otel-traces.json'), 'utf8');
    expect(collector.posts).toEqual([{ path: '/v1/traces', type: 'application/json', body: file }]);
    const spans = spansOf(file);
    const roots = spans.filter((s) => !s.parentSpanId);
    expect(
      roots.map((r) => [attr(r, 'faultline.scenario'), attr(r, 'faultline.trial.index'), attr(r, 'faultline.verdict')]),
    ).toEqual([
      [SCENARIO, 0, 'failed'],
      [SCENARIO, 1, 'failed'],
    ]);
    expect(attr(roots[0]!, 'faultline.replay')).toBe(`faultline replay ${SCENARIO} --config naive --seed 1 --trial 0`);
    expect(roots[0]!.events.map((e) => e.name)).toContain('faultline.finding duplicates');
    const tools = spans.filter(
      (s) => attr(s, 'gen_ai.operation.name') === 'execute_tool' && s.traceId === roots[0]!.traceId,
    );
    expect(tools.map((t) => attr(t, 'gen_ai.tool.name'))).toContain('create_order');
    const attempts = spans.filter(
      (s) => s.parentSpanId === tools.find((t) => attr(t, 'gen_ai.tool.name') === 'create_order')!.spanId,
    );
    expect(attempts.map((a) => attr(a, 'faultline.fault.kind'))).toContain('partial_write');
    expect(spans.filter((s) => attr(s, 'gen_ai.operation.name') === 'chat').length).toBeGreaterThan(0);
  } finally {
    await collector.close();
    await dir.cleanup();
  }
});

describe('in process', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir('otlp');
  });
  afterAll(() => dir.cleanup());

  it('the same seed gives the same bytes on 0, 1 and 2 workers (--otlp-all: the passing trials too)', async () => {
    const texts: string[] = [];
    for (const workers of ['0', '1', '2']) {
      const out = `w${workers}`;
      const done = await inProcess(
        [
          'run',
          SCENARIO,
          '--config',
          'naive',
          '--config',
          'rulebook',
          '--k',
          '3',
          '--reporter',
          'otlp',
          '--otlp-all',
          '--workers',
          workers,
          '--out',
          out,
        ],
        { cwd: dir.path },
      );
      expect(done.code).toBe(1);
      texts.push(await readFile(join(dir.path, out, 'otel-traces.json'), 'utf8'));
    }
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);
    const verdicts = spansOf(texts[0]!)
      .filter((s) => !s.parentSpanId)
      .map((r) => attr(r, 'faultline.verdict'));
    expect(verdicts).toContain('passed');
    expect(verdicts).toContain('failed');
    expect(verdicts).toHaveLength(6);
  });

  it('a bad --otlp-endpoint is refused naming the flag (exit 2)', async () => {
    const done = await inProcess(['run', SCENARIO, '--k', '1', '--otlp-endpoint', 'localhost:4318'], { cwd: dir.path });
    expect(done.code).toBe(2);
    expect(done.stderr).toContain("option '--otlp-endpoint <url>' argument 'localhost:4318' is invalid");
  });

  it('a collector that fails is an error line and exit 5; every report is written all the same', async () => {
    const collector = await receiver(503);
    try {
      const done = await inProcess(
        [
          'run',
          SCENARIO,
          '--config',
          'naive',
          '--k',
          '1',
          '--out',
          'down',
          '--otlp-endpoint',
          // A token in the query, as some hosted collectors take one: shown redacted, sent as given.
          `${collector.url}/otlp/v1/traces?api_key=tok-s3cr3t-123`,
        ],
        { cwd: dir.path },
      );
      expect(done.code).toBe(5);
      expect(done.stderr).toContain(
        `faultline: --otlp-endpoint ${collector.url}/otlp/v1/traces?api_key=[REDACTED]: the collector answered 503: {"message":"collector down"}; the traces are in down/otel-traces.json`,
      );
      expect(done.stdout + done.stderr).not.toContain('tok-s3cr3t-123');
      expect(collector.posts.map((p) => p.path)).toEqual(['/otlp/v1/traces?api_key=tok-s3cr3t-123']);
      for (const file of ['faultline.json', 'junit.xml', 'summary.md', 'otel-traces.json'])
        expect((await readFile(join(dir.path, 'down', file), 'utf8')).length).toBeGreaterThan(0);
    } finally {
      await collector.close();
    }
  });
});

const SECRET = 'PLANTED-otlp-s3cr3t-77';

it('no declared secret reaches the traces file or the collector', async () => {
  const project = await userProject('otlp-secrets', {
    'leak.yaml': leakingScenario('leak', SECRET),
  });
  const collector = await receiver(200);
  try {
    const done = await inProcess(['run', 'leak.yaml', '--k', '1', '--otlp-all', '--otlp-endpoint', collector.url], {
      cwd: project.path,
    });
    expect(done.code).not.toBe(2);
    const file = await readFile(join(project.path, 'reports', 'otel-traces.json'), 'utf8');
    // The trial is there, its rejected attempt too: the secret was taken out, not the trace.
    const spans = spansOf(file);
    expect(spans.some((s) => s.status.message?.includes('card declined'))).toBe(true);
    expect(file).not.toContain('PLANTED');
    expect(collector.posts).toHaveLength(1);
    expect(collector.posts[0]!.body).not.toContain('PLANTED');
  } finally {
    await collector.close();
    await project.cleanup();
  }
});
