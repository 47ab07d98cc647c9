import { z } from 'zod';
import { FaultlineError, FaultlineErrorCode } from '../../core/index.js';
import { formatIssues } from '../../core/zodIssues.js';
import { jsonErrorPlace } from './jsonErrorPlace.js';

/** An attribute's value as OTLP/JSON writes it (`AnyValue`), flattened to a JSON value. */
export type AttrValue = string | number | boolean | null | readonly AttrValue[] | { readonly [k: string]: AttrValue };

/** One span of an OTLP/JSON file, with what the importer reads of it. */
export interface FlatSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  /** Milliseconds since 1970 (the file's nanoseconds, rounded to the microsecond). */
  readonly startMs: number;
  readonly endMs: number;
  readonly status: { readonly error: boolean; readonly message: string | undefined };
  readonly attributes: Readonly<Record<string, AttrValue>>;
  readonly events: readonly { readonly name: string; readonly attributes: Readonly<Record<string, AttrValue>> }[];
  /** Where it sits in the file: `resourceSpans[0].scopeSpans[1].spans[2]` (a line's number first for JSON lines). */
  readonly path: string;
  readonly resource: Readonly<Record<string, AttrValue>>;
}

// OTLP/JSON writes 64-bit integers as strings or numbers, ids as hex (the spec) or base64 (protobuf's JSON mapping).
const Int64 = z.union([z.string().regex(/^\d+$/, 'expected an integer (nanoseconds since 1970)'), z.number().int()]);
const AnyValueSchema: z.ZodType<unknown> = z.lazy(() =>
  z
    .object({
      stringValue: z.string().optional(),
      boolValue: z.boolean().optional(),
      intValue: z.union([z.string(), z.number()]).optional(),
      doubleValue: z.union([z.number(), z.string()]).optional(),
      bytesValue: z.string().optional(),
      arrayValue: z.object({ values: z.array(AnyValueSchema).optional() }).optional(),
      kvlistValue: z.object({ values: z.array(KeyValueSchema).optional() }).optional(),
    })
    .loose(),
);
const KeyValueSchema = z.object({ key: z.string(), value: AnyValueSchema.optional() }).loose();
const Attributes = z.array(KeyValueSchema).optional();
const SpanSchema = z
  .object({
    traceId: z.string().min(1, 'expected a trace id (32 hex digits)'),
    spanId: z.string().min(1, 'expected a span id (16 hex digits)'),
    parentSpanId: z.string().optional(),
    name: z.string(),
    startTimeUnixNano: Int64,
    endTimeUnixNano: Int64,
    attributes: Attributes,
    events: z.array(z.object({ name: z.string().optional(), attributes: Attributes }).loose()).optional(),
    status: z.object({ code: z.union([z.number(), z.string()]).optional(), message: z.string().optional() }).optional(),
  })
  .loose();
export const ExportTraceRequestSchema = z
  .object(
    {
      resourceSpans: z.array(
        z
          .object({
            resource: z.object({ attributes: Attributes }).loose().optional(),
            scopeSpans: z.array(z.object({ spans: z.array(SpanSchema).optional() }).loose()).optional(),
          })
          .loose(),
        { error: 'expected an array of resource spans (an OTLP/JSON ExportTraceServiceRequest)' },
      ),
    },
    { error: 'expected an object { "resourceSpans": [...] } (an OTLP/JSON ExportTraceServiceRequest)' },
  )
  .loose();
type Request = z.infer<typeof ExportTraceRequestSchema>;
type KeyValue = z.infer<typeof KeyValueSchema>;

const bad = (message: string): FaultlineError => new FaultlineError(FaultlineErrorCode.ScenarioInvalid, message);

/** A JSON file, or JSON lines (the Collector's file exporter writes one request per line), as requests. */
function parseDocuments(text: string, file: string): { value: unknown; where: string }[] {
  try {
    return [{ value: JSON.parse(text) as unknown, where: '' }];
  } catch (whole) {
    const lines = text
      .split('\n')
      .map((l, i) => ({ l: l.trim(), lead: l.length - l.trimStart().length, i }))
      .filter((x) => x.l !== '');
    if (lines.length < 2) throw bad(`${file}: not JSON (${jsonErrorPlace(text, whole)}); expected OTLP/JSON traces`);
    return lines.map(({ l, lead, i }) => {
      try {
        return { value: JSON.parse(l) as unknown, where: `line ${i + 1}: ` };
      } catch (error) {
        throw bad(
          `${file}: line ${i + 1}: not JSON (${jsonErrorPlace(l, error, { lead })}); expected OTLP/JSON traces`,
        );
      }
    });
  }
}

/**
 * Every span of an OTLP/JSON traces file (an `ExportTraceServiceRequest`, or JSON lines of them).
 * @throws FaultlineError naming the file, the path in it and what was expected.
 */
export function readOtlpSpans(text: string, file: string): FlatSpan[] {
  const spans: FlatSpan[] = [];
  for (const { value, where } of parseDocuments(text, file)) {
    const parsed = ExportTraceRequestSchema.safeParse(value);
    if (!parsed.success) {
      const lines = formatIssues(parsed.error.issues).slice(0, 5);
      throw bad(`${file}: ${where}not OTLP/JSON traces:\n${lines.map((l) => `  - ${l}`).join('\n')}`);
    }
    spans.push(...flatten(parsed.data, where));
  }
  return spans;
}

function flatten(request: Request, where: string): FlatSpan[] {
  return request.resourceSpans.flatMap((rs, r) => {
    const resource = attributesOf(rs.resource?.attributes);
    return (rs.scopeSpans ?? []).flatMap((ss, s) =>
      (ss.spans ?? []).map((span, i): FlatSpan => {
        const parent =
          span.parentSpanId === undefined || span.parentSpanId === '' ? undefined : hexId(span.parentSpanId);
        return {
          traceId: hexId(span.traceId),
          spanId: hexId(span.spanId),
          parentSpanId: parent,
          name: span.name,
          startMs: nanosToMs(span.startTimeUnixNano),
          endMs: nanosToMs(span.endTimeUnixNano),
          // STATUS_CODE_ERROR is 2 (as a number, or its enum name in protobuf's JSON mapping).
          status: {
            error: span.status?.code === 2 || span.status?.code === 'STATUS_CODE_ERROR',
            message: span.status?.message,
          },
          attributes: attributesOf(span.attributes),
          events: (span.events ?? []).map((e) => ({ name: e.name ?? '', attributes: attributesOf(e.attributes) })),
          path: `${where}resourceSpans[${r}].scopeSpans[${s}].spans[${i}]`,
          resource,
        };
      }),
    );
  });
}

const nanosToMs = (n: string | number): number => {
  const big = typeof n === 'number' ? BigInt(Math.trunc(n)) : BigInt(n);
  return Number(big / 1000n) / 1000;
};

/** Hex as the OTLP/JSON spec writes ids; base64 (protobuf's JSON mapping) turned to hex. */
function hexId(id: string): string {
  if (/^[0-9a-fA-F]+$/.test(id) && (id.length === 32 || id.length === 16)) return id.toLowerCase();
  const bytes = Buffer.from(id, 'base64');
  return bytes.length === 16 || bytes.length === 8 ? bytes.toString('hex') : id;
}

function attributesOf(list: readonly KeyValue[] | undefined): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  for (const kv of list ?? []) out[kv.key] = valueOf(kv.value);
  return out;
}

function valueOf(v: unknown): AttrValue {
  if (typeof v !== 'object' || v === null) return null;
  const any = v as Record<string, unknown>;
  if (typeof any['stringValue'] === 'string') return any['stringValue'];
  if (typeof any['boolValue'] === 'boolean') return any['boolValue'];
  if (any['intValue'] !== undefined) return Number(any['intValue']);
  if (any['doubleValue'] !== undefined) return Number(any['doubleValue']);
  if (typeof any['bytesValue'] === 'string') return any['bytesValue'];
  const array = any['arrayValue'] as { values?: unknown[] } | undefined;
  if (array) return (array.values ?? []).map(valueOf);
  const kv = any['kvlistValue'] as { values?: KeyValue[] } | undefined;
  if (kv) return attributesOf(kv.values);
  return null;
}
