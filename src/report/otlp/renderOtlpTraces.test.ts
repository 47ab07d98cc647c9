import { describe, expect, it } from 'vitest';
import { makeRun, makeTrial, sampleRun, stamp } from '../testing.js';
import { OTLP_EPOCH_ISO, renderOtlpTraces } from './renderOtlpTraces.js';
import { trialSpans } from './trialSpans.js';
import type { TrialSummary } from '../../stats/trialResult.js';

interface Attr {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; arrayValue?: unknown };
}
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Attr[];
  events: { name: string; attributes: Attr[] }[];
  status: { code: number; message?: string };
}
interface Body {
  resourceSpans: { resource: { attributes: Attr[] }; scopeSpans: { scope: { name: string }; spans: Span[] }[] }[];
}

const parse = (text: string): Body => JSON.parse(text) as Body;
const spansOf = (body: Body): Span[] => body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
const attr = (attrs: readonly Attr[], key: string): unknown => {
  const v = attrs.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : v?.boolValue);
};
const EPOCH_NS = BigInt(Date.parse(OTLP_EPOCH_ISO)) * 1_000_000n;

describe('renderOtlpTraces', () => {
  it('writes one trace per kept trial, each a tree under its trial span, on the fixed epoch', () => {
    const run = sampleRun();
    const body = parse(renderOtlpTraces(run));
    expect(attr(body.resourceSpans[0]!.resource.attributes, 'faultline.time.epoch')).toBe(OTLP_EPOCH_ISO);
    expect(attr(body.resourceSpans[0]!.resource.attributes, 'faultline.run_seed')).toBe(42);
    const spans = spansOf(body);
    const traces = new Set(spans.map((s) => s.traceId));
    expect(traces.size).toBe(run.cells.reduce((a, c) => a + c.trials.length, 0));
    for (const traceId of traces) {
      const mine = spans.filter((s) => s.traceId === traceId);
      expect(mine.filter((s) => s.parentSpanId === undefined || s.parentSpanId === '')).toHaveLength(1);
      const ids = new Set(mine.map((s) => s.spanId));
      for (const s of mine) if (s.parentSpanId) expect(ids.has(s.parentSpanId)).toBe(true);
    }
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
  });

  it('maps a trial to its root, model turn, tool call and attempts with the fault, the status and the wait', () => {
    const body = parse(renderOtlpTraces(sampleRun()));
    const spans = spansOf(body);
    const root = spans.find(
      (s) => s.name === 'trial order-partial-write' && attr(s.attributes, 'faultline.verdict') === 'failed',
    )!;
    expect(attr(root.attributes, 'faultline.config')).toBe('naive');
    expect(attr(root.attributes, 'faultline.trial.index')).toBe(1);
    expect(attr(root.attributes, 'faultline.seed')).toBe(42_001);
    expect(attr(root.attributes, 'faultline.replay')).toMatch(/^faultline replay order-partial-write --config naive /);
    expect(root.status).toEqual({ code: 2, message: 'duplicates' });
    expect(root.events.map((e) => [e.name, attr(e.attributes, 'faultline.message')])).toEqual([
      ['faultline.finding duplicates', 'orders:ref-1 was created 2 times'],
    ]);
    expect(BigInt(root.startTimeUnixNano)).toBe(EPOCH_NS);
    expect(BigInt(root.endTimeUnixNano) - EPOCH_NS).toBe(10_462_000_000n);

    const trace = spans.filter((s) => s.traceId === root.traceId);
    const chat = trace.find((s) => attr(s.attributes, 'gen_ai.operation.name') === 'chat')!;
    expect(chat.parentSpanId).toBe(root.spanId);
    const tool = trace.find((s) => attr(s.attributes, 'gen_ai.operation.name') === 'execute_tool')!;
    expect([tool.name, tool.parentSpanId, attr(tool.attributes, 'gen_ai.tool.name')]).toEqual([
      'execute_tool create_order',
      root.spanId,
      'create_order',
    ]);
    expect(attr(tool.attributes, 'faultline.attempts')).toBe(2);
    const attempts = trace.filter((s) => s.parentSpanId === tool.spanId);
    expect(attempts.map((a) => a.name)).toEqual(['attempt 1', 'attempt 2']);
    const [first, second] = attempts;
    expect(attr(first!.attributes, 'faultline.fault.kind')).toBe('partial_write');
    expect(attr(first!.attributes, 'faultline.fault.rule')).toBe(0);
    expect(attr(first!.attributes, 'faultline.wait_ms')).toBe(412);
    expect(attr(first!.attributes, 'error.type')).toBe('timeout');
    expect(first!.status.code).toBe(2);
    expect(attr(second!.attributes, 'http.response.status_code')).toBe(201);
    expect(BigInt(second!.startTimeUnixNano) - EPOCH_NS).toBe(10_412_000_000n);
  });

  it('gives the same bytes for the same run, and other ids for another seed', () => {
    const a = renderOtlpTraces(sampleRun());
    expect(renderOtlpTraces(sampleRun())).toBe(a);
    const other = renderOtlpTraces(
      makeRun({ seed: 43, cells: [{ scenario: 'order-partial-write', config: 'naive' }] }),
    );
    const ids = (t: string): Set<string> => new Set(spansOf(parse(t)).map((s) => s.traceId));
    for (const id of ids(other)) expect(ids(a).has(id)).toBe(false);
  });

  it('gives two cells that differ only in behaviour or agent other trace and span ids (their trials share the seed)', () => {
    const trial = makeTrial({ scenario: 'order-partial-write', config: 'naive', runSeed: 42, trialIndex: 0 });
    const under = (refs: TrialSummary['refs']): Set<string> =>
      new Set(trialSpans({ ...trial, refs }).flatMap((s) => [s.traceId, s.spanId]));
    const plain = under(trial.refs);
    const careful = under({ ...trial.refs, behaviour: 'careful' });
    const sloppy = under({ ...trial.refs, behaviour: 'sloppy' });
    const agent = under({ ...trial.refs, agent: 'openai' });
    for (const [a, b] of [
      [plain, careful],
      [careful, sloppy],
      [plain, agent],
    ] as const)
      for (const id of a) expect(b.has(id)).toBe(false);
  });

  it('keeps only the trials the run kept: with --keep-failures, the failing ones', () => {
    const run = makeRun({
      keepFailures: 5,
      cells: [{ scenario: 's', config: 'c', fail: { 2: [{ check: 'budget', message: 'too many (R6)' }] } }],
    });
    const roots = spansOf(parse(renderOtlpTraces(run))).filter((s) => s.name === 'trial s');
    expect(roots.map((r) => attr(r.attributes, 'faultline.trial.index'))).toEqual([2]);
    expect(roots[0]!.events[0]!.attributes.find((a) => a.key === 'faultline.rules')?.value).toEqual({
      arrayValue: { values: [{ stringValue: 'R6' }] },
    });
  });

  it('a model request over HTTP is a chat span with its tokens summed over its attempts', () => {
    const base = makeTrial({ scenario: 's', config: 'c', runSeed: 1, trialIndex: 0 });
    const model = { tool: 'openai.chat', kind: 'model', purpose: 'call', call: 'm-1', callNumber: 1 } as const;
    const wire = { groupedBy: 'new', method: 'POST', url: 'https://api.openai.com/v1/chat/completions' } as const;
    const history = stamp([
      { t: 0, type: 'http_request', ...model, ...wire, request: 'r-1', attempt: 1, bodyDigest: 'a' },
      { t: 5, type: 'response', request: 'r-1', tool: 'openai.chat', result: 'error', status: 429 },
      { t: 9, type: 'http_request', ...model, ...wire, request: 'r-2', attempt: 2, bodyDigest: 'a' },
      {
        t: 20,
        type: 'response',
        request: 'r-2',
        tool: 'openai.chat',
        result: 'ok',
        status: 200,
        usage: { input: 120, output: 30 },
      },
    ]);
    const trial: TrialSummary = { ...base, history, model: 'gpt-4o-mini' };
    const [root, chat, a1, a2] = trialSpans(trial);
    expect(chat!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
    });
    expect([chat!.parentSpanId, a1!.parentSpanId, a2!.parentSpanId]).toEqual([
      root!.spanId,
      chat!.spanId,
      chat!.spanId,
    ]);
    expect([a1!.attributes['http.response.status_code'], a1!.status.code, a1!.endMs]).toEqual([429, 'error', 5]);
  });
});
