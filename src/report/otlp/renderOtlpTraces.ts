import { SpanKind, SpanStatusCode, TraceFlags, type HrTime } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { RunResult } from '../../runner/run.js';
import { trialSpans } from './trialSpans.js';
import type { SpanEventData, TraceSpan } from './traceSpan.js';

/**
 * The instant virtual time 0 maps to: every trial starts here, so a trace's timestamps read as
 * virtual time. Fixed (not the wall clock) so the same seed gives the same bytes.
 */
export const OTLP_EPOCH_ISO = '2025-01-01T00:00:00.000Z';
const EPOCH_SECONDS = Date.UTC(2025, 0, 1) / 1000;

/** Virtual ms as an OpenTelemetry time: whole seconds since 1970 and nanoseconds. */
export const hrTimeOf = (ms: number): HrTime => hrSpan(ms, EPOCH_SECONDS);

function hrSpan(ms: number, fromSeconds: number): HrTime {
  const nanos = Math.round(ms * 1e6);
  return [fromSeconds + Math.floor(nanos / 1e9), nanos % 1e9];
}

const SCOPE = { name: 'faultline' } as const;

function readable(span: TraceSpan, resource: ReadableSpan['resource']): ReadableSpan {
  const context = { traceId: span.traceId, spanId: span.spanId, traceFlags: TraceFlags.SAMPLED };
  const event = (e: SpanEventData): ReadableSpan['events'][number] => ({
    name: e.name,
    time: hrTimeOf(e.atMs),
    attributes: e.attributes,
  });
  return {
    name: span.name,
    kind: span.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
    spanContext: () => context,
    ...(span.parentSpanId !== undefined && {
      parentSpanContext: { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: TraceFlags.SAMPLED },
    }),
    startTime: hrTimeOf(span.startMs),
    endTime: hrTimeOf(span.endMs),
    duration: hrSpan(span.endMs - span.startMs, 0),
    status:
      span.status.code === 'error'
        ? { code: SpanStatusCode.ERROR, ...(span.status.message !== undefined && { message: span.status.message }) }
        : { code: SpanStatusCode.UNSET },
    attributes: span.attributes,
    links: [],
    events: span.events.map(event),
    ended: true,
    resource,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/**
 * The spans of every trial the run kept in full (its history is what a trace is drawn from), cells
 * in run order, trials by index: with `--keep-failures n` the first n failing trials of each cell;
 * `--otlp-all` has the run keep every trial, passing ones too.
 */
export const runSpans = (run: RunResult): TraceSpan[] =>
  run.cells.flatMap((cell) => cell.trials.flatMap((t) => trialSpans(t, cell.clock ?? 'virtual')));

/**
 * The run's kept trials as an OTLP/JSON `ExportTraceServiceRequest` (the body OTLP/HTTP takes at
 * `/v1/traces`), one trace per trial, encoded by the OpenTelemetry packages' own serializer.
 */
export function renderOtlpTraces(run: RunResult): string {
  const resource = resourceFromAttributes({
    'service.name': 'faultline',
    'faultline.run_seed': run.seed,
    'faultline.k': run.k,
    'faultline.time.epoch': OTLP_EPOCH_ISO,
    'faultline.time.meaning': 'span times are the epoch plus the trial clock (virtual ms; a command agent: real ms)',
  });
  const spans = runSpans(run).map((s) => readable(s, resource));
  return `${new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans))}\n`;
}
