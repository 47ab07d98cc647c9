/** A span as faultline lays out a trial, before the OpenTelemetry packages encode it: times are virtual ms from the trial's start. */
export type SpanValue = string | number | boolean | string[];

export interface SpanEventData {
  readonly name: string;
  readonly atMs: number;
  readonly attributes: Readonly<Record<string, SpanValue>>;
}

export interface TraceSpan {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  /** `client` for a call that leaves the agent (a tool or model request), `internal` for the trial and the model's turns. */
  readonly kind: 'internal' | 'client';
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes: Readonly<Record<string, SpanValue>>;
  readonly events: readonly SpanEventData[];
  readonly status: { readonly code: 'unset' | 'error'; readonly message?: string };
}
