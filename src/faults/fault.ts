import { z } from 'zod';

/** RFC 9110 `token`: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Response headers a fault adds to its answer; a name the answer already has is replaced (case-insensitive). */
const AnswerHeadersSchema = z.record(z.string(), z.string()).superRefine((headers, ctx) => {
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name))
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `"${name}" is not a valid header name (letters, digits and !#$%&'*+.^_\`|~-)`,
      });
    else if (/[\r\n]/.test(value))
      ctx.addIssue({ code: 'custom', path: [name], message: 'a header value cannot contain a line break' });
  }
});

/** A JSON value, as a response body: what a YAML or JSON plan can write. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

// Our own rather than `z.json()`, so the JSON Schema names it (`$defs.JsonValue`) instead of `__schema0`.
export const JsonValueSchema: z.ZodType<JsonValue> = z
  .union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(z.lazy(() => JsonValueSchema)),
    z.record(
      z.string(),
      z.lazy(() => JsonValueSchema),
    ),
  ])
  .meta({ id: 'JsonValue' });

/**
 * What a fault that answers with a status may say in the API's own words: `headers` (say
 * `Retry-After`, `x-should-retry: false`, `stripe-should-retry`) merged over the default
 * ones, and a `body` sent instead of the default error envelope (a JSON value; a string is
 * sent as `text/plain`). Both transports carry them: the in-process wire on its `HttpError`.
 */
const answerFields = {
  headers: AnswerHeadersSchema.optional().describe(
    "Response headers added to the fault's answer (Retry-After, x-should-retry, stripe-should-retry…); " +
      'a default one of the same name is replaced.',
  ),
  body: JsonValueSchema.optional().describe(
    "The answer's body instead of the default error envelope: a JSON value, or a string sent as text/plain.",
  ),
};

const afterEvents = z
  .number()
  .int()
  .nonnegative()
  .describe('How many server-sent events the client gets whole before the fault strikes.');

/**
 * Faults of a streamed model answer (a request with `stream: true`), kept together so the list
 * of kinds has one place to grow. A rule naming one applies only to streamed answers: it never
 * matches any other request, so it neither fires nor consumes a probability draw there.
 */
const STREAM_FAULT_SCHEMAS = [
  /** After `afterEvents` events the connection drops: the client's read fails mid-body. */
  z.object({ kind: z.literal('stream_cut'), afterEvents }).strict(),
  /** After `afterEvents` events nothing more comes, until the client gives up (its timeout, its abort) or the trial ends. */
  z.object({ kind: z.literal('stream_stall'), afterEvents }).strict(),
  /** Event number `afterEvents + 1` arrives as a chunk that is not valid JSON; the rest follows as it was. */
  z.object({ kind: z.literal('stream_malformed'), afterEvents }).strict(),
] as const;

export const STREAM_FAULT_KINDS = STREAM_FAULT_SCHEMAS.map((o) => o.shape.kind.value);
export type StreamFaultKind = (typeof STREAM_FAULT_KINDS)[number];

/**
 * Faults that look like success: delivered, answered 2xx, and wrong. The history records each
 * lie (`lie` event: what the world held, what was answered).
 */
const LIE_FAULT_SCHEMAS = [
  /**
   * A read answers from the service's state as it was `lagMs` virtual ms ago (read-after-write
   * lag). A read is a status query (R21) or a call of a tool whose risk is `read` (a declared
   * service's tool with `risk: 'read'`, or an HTTP route of one); a rule naming it never matches
   * a write, whose own answer is never stale. Services keep versions only as far back as the plan asks.
   */
  z
    .object({
      kind: z.literal('stale'),
      lagMs: z
        .number()
        .int()
        .positive()
        .describe('How many virtual ms behind the world the answer is (an integer above 0).'),
    })
    .strict(),
  /**
   * Delivered, answered 2xx with the empty value of the answer's shape: `[]` for a list, `null` for a field,
   * `not_found` for a status query.
   */
  z.object({ kind: z.literal('empty') }).strict(),
  /** Delivered, answered 2xx with a list cut to its first `keep` items (every list in the answer), or a text cut to `keep` characters. */
  z
    .object({
      kind: z.literal('truncated'),
      keep: z.number().int().nonnegative().describe('How many items (or characters) survive (an integer ≥ 0).'),
      at: z
        .enum(['text', 'tool_call'])
        .optional()
        .describe(
          'On a model route only: cut the answer mid text or mid tool call (default: whichever the answer has); ' +
            'the answer ends as the provider ends an answer out of tokens (finish_reason length, stop_reason max_tokens).',
        ),
    })
    .strict(),
  /**
   * Delivered, answered 2xx with the field at `path` (dotted: `status`, `items.0.price`) replaced
   * by a different value of its type, drawn from the trial's rng (another member of the output
   * schema's enum where the tool declares one). An answer without that field is told no lie.
   */
  z
    .object({
      kind: z.literal('wrong_value'),
      path: z
        .string()
        .regex(/^[^.]+(\.[^.]+)*$/, 'expected a dotted path such as "status" or "items.0.price"')
        .describe('The dotted path of the field to replace.'),
    })
    .strict(),
] as const;

export const LIE_FAULT_KINDS = LIE_FAULT_SCHEMAS.map((o) => o.shape.kind.value);
export type LieFaultKind = (typeof LIE_FAULT_KINDS)[number];

const refusalMessage = z
  .string()
  .min(1)
  .optional()
  .describe("The refusal's words (default: the provider's usual \"I'm sorry, but I can't help with that.\").");

/**
 * The model's own mistakes (issue 45): the model API answers 200 (or, for `context_length`,
 * its real 400) with an answer that is wrong the way real models' answers are wrong. They strike
 * only model routes (`model:openai.chat.completions`, `model:openai.responses`,
 * `model:anthropic.messages`), streamed or not; each draw comes from the trial's rng. The history
 * records each as a `lie` (what the model said, what the agent got). `truncated` (above) is one
 * of them on a model route.
 */
const MODEL_FAULT_SCHEMAS = [
  /** A tool call's arguments are not valid JSON: cut mid-value, or a brace or quote lost. */
  z.object({ kind: z.literal('malformed_arguments') }).strict(),
  /** Valid JSON that breaks the offered tool's input schema (drawn from it unless `break` says which way). */
  z
    .object({
      kind: z.literal('invalid_arguments'),
      break: z
        .enum(['missing_required', 'unknown_key', 'wrong_type', 'out_of_range', 'renamed_keys', 'no_arguments'])
        .optional()
        .describe(
          'How the arguments break the schema: a required key missing, an unknown key, a wrong type, ' +
            'a value out of range or not in the enum (default: drawn among those four the schema allows); ' +
            'every key renamed to one the schema does not declare, or no arguments at all (`{}`).',
        ),
    })
    .strict(),
  /** Valid arguments about another entity: another id the world holds, or a plausible wrong amount. */
  z.object({ kind: z.literal('wrong_target') }).strict(),
  /** A call of a tool the request did not offer, named as a near miss of one it did (`get_orders` for `get_order`). */
  z.object({ kind: z.literal('unknown_tool') }).strict(),
  /** The provider's refusal: OpenAI's `refusal` field or part, Anthropic's `stop_reason: refusal`. */
  z.object({ kind: z.literal('refusal'), message: refusalMessage }).strict(),
  /** The provider's content filter: `finish_reason: content_filter`, a Responses answer `incomplete` for `content_filter`. */
  z.object({ kind: z.literal('content_filter') }).strict(),
  /** An answer whose text is the empty string (and no tool call). */
  z.object({ kind: z.literal('empty_text') }).strict(),
  /** The text, or a tool call's arguments, with broken encoding (mojibake, U+FFFD). */
  z.object({ kind: z.literal('garbled') }).strict(),
  /** An error page or error text inside a normal 200 answer. */
  z
    .object({
      kind: z.literal('error_in_200'),
      message: z
        .string()
        .min(1)
        .optional()
        .describe('The error text the answer carries (default: a gateway error page).'),
    })
    .strict(),
  /** The previous answer of the same model route again (a stale answer); nothing before it: no fault. */
  z.object({ kind: z.literal('replayed') }).strict(),
  /** The provider's real 400 for a conversation too long for the model (`context_length_exceeded`). */
  z.object({ kind: z.literal('context_length') }).strict(),
] as const;

export const MODEL_FAULT_KINDS = MODEL_FAULT_SCHEMAS.map((o) => o.shape.kind.value);
export type ModelFaultKind = (typeof MODEL_FAULT_KINDS)[number];

/**
 * What the wire does to one delivery. Plain data: serialisable, printable in reports,
 * and small enough for `explore` to shrink.
 */
export const FaultSchema = z.discriminatedUnion('kind', [
  /** Never answers; the caller's own timeout decides. Not delivered. */
  z.object({ kind: z.literal('timeout') }).strict(),
  /** Delivered at once, answered `ms` later: past the caller's timeout it commits with the answer lost. */
  z.object({ kind: z.literal('latency'), ms: z.number().int().nonnegative() }).strict(),
  /** The connection fails before the request reaches the service. */
  z.object({ kind: z.literal('network'), code: z.enum(['ECONNRESET', 'ECONNREFUSED', 'EPIPE']) }).strict(),
  /**
   * 429 with an optional `Retry-After` (R9): a number of seconds, sent as delta-seconds or,
   * with `retryAfterAs: 'http-date'`, as the HTTP-date that many seconds after the answer;
   * a string is sent verbatim (an absolute HTTP-date, or garbage to test parsing).
   */
  z
    .object({
      kind: z.literal('rate_limit'),
      retryAfter: z.union([z.number().nonnegative(), z.string()]).optional(),
      retryAfterAs: z.enum(['seconds', 'http-date']).optional(),
      ...answerFields,
    })
    .strict(),
  /** 429 `insufficient_quota`: waiting will not help (R5). */
  z.object({ kind: z.literal('quota_exceeded'), ...answerFields }).strict(),
  // Multi-value literals, so a bad status is reported as "expected one of 500|502|…".
  z.object({ kind: z.literal('unavailable'), status: z.literal([500, 502, 503, 504, 529]), ...answerFields }).strict(),
  /** The service commits, then the answer is lost (R18); lost as `unavailable`, the gateway's 504 may carry `headers` and `body`. */
  z
    .object({
      kind: z.literal('partial_write'),
      lostAs: z.enum(['timeout', 'network', 'unavailable']),
      ...answerFields,
    })
    .strict()
    .refine((f) => f.lostAs === 'unavailable' || (f.headers === undefined && f.body === undefined), {
      message: 'only a partial write lost as `unavailable` has an answer to carry `headers` or `body`',
      path: ['lostAs'],
    }),
  /** The request reaches the service `copies` times (2 or more); the caller sees the first answer. */
  z
    .object({
      kind: z.literal('duplicate'),
      copies: z.number().int().min(2).max(10),
      concurrent: z.boolean().optional(),
    })
    .strict(),
  z.object({ kind: z.literal('permission_denied'), status: z.literal([401, 403]), ...answerFields }).strict(),
  /** 422: the service refuses the request on business grounds. Not delivered. */
  z.object({ kind: z.literal('rejected'), message: z.string().optional(), ...answerFields }).strict(),
  z.object({ kind: z.literal('not_found'), ...answerFields }).strict(),
  z.object({ kind: z.literal('conflict'), ...answerFields }).strict(),
  /**
   * Delivered, and the service fails while handling it (500) without committing. A service
   * that honours idempotency keys stores that 500 and replays it for the same key (R24).
   */
  z.object({ kind: z.literal('server_error'), ...answerFields }).strict(),
  /** The service commits, but the answer is corrupt (truncated JSON). */
  z.object({ kind: z.literal('malformed') }).strict(),
  ...LIE_FAULT_SCHEMAS,
  ...STREAM_FAULT_SCHEMAS,
  ...MODEL_FAULT_SCHEMAS,
]);
export type Fault = z.infer<typeof FaultSchema>;
export type FaultKind = Fault['kind'];
export type FaultOf<K extends FaultKind> = Extract<Fault, { kind: K }>;

export const FAULT_KINDS = FaultSchema.options.map((o) => o.shape.kind.value) as readonly FaultKind[];
export type StreamFault = FaultOf<StreamFaultKind>;
export const isStreamFault = (fault: Fault): fault is StreamFault =>
  (STREAM_FAULT_KINDS as readonly string[]).includes(fault.kind);
export type LieFault = FaultOf<LieFaultKind>;
export const isLieFault = (fault: Fault): fault is LieFault =>
  (LIE_FAULT_KINDS as readonly string[]).includes(fault.kind);
export type ModelFault = FaultOf<ModelFaultKind>;
/** A fault only a model route takes (`truncated` is also a lie elsewhere: see `isModelMistake`). */
export const isModelFault = (fault: Fault): fault is ModelFault =>
  (MODEL_FAULT_KINDS as readonly string[]).includes(fault.kind);
/** What a model route makes of the answer itself: its own kinds, and `truncated` (cut as the provider cuts). */
export type ModelMistake = ModelFault | FaultOf<'truncated'>;
export const isModelMistake = (fault: Fault): fault is ModelMistake =>
  isModelFault(fault) || fault.kind === 'truncated';
