import { z } from 'zod';
import { canonicalJson, FaultlineError, FaultlineErrorCode } from '../../core/index.js';
import { formatIssues, formatPath } from '../../core/zodIssues.js';
import { findDuplicateKey } from '../../core/jsonDuplicateKey.js';
import { jsonTooDeepAt, tooDeepText } from '../../core/jsonNesting.js';
import { closestDiff } from './requestDiff.js';

/**
 * One model request and the answer it got. The request is kept without its headers (they carry
 * the API key); the answer keeps only the headers a client reads (`content-type`, the retry hints).
 */
export interface CassetteEntry {
  readonly request: { readonly method: string; readonly path: string; readonly body: unknown };
  readonly response: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: unknown;
  };
}

const EntrySchema = z.strictObject({
  request: z.strictObject({ method: z.string().min(1), path: z.string().startsWith('/'), body: z.unknown() }),
  response: z.strictObject({
    status: z.number().int().min(200).max(599),
    headers: z.record(z.string(), z.string()),
    body: z.unknown(),
  }),
});

export const CASSETTE_VERSION = 1;

/**
 * A cassette file (`<scenario>.cassette.json`): the model API it was recorded from and one entry
 * per distinct request (method, path, canonical JSON body), in the order they were first sent.
 */
export const CassetteFileSchema = z.strictObject({
  faultline: z.literal('cassette'),
  version: z.literal(CASSETTE_VERSION),
  api: z.enum(['openai', 'anthropic']),
  /**
   * Set on one live trial's recording: every exchange is kept in the order it happened, and a
   * replay answers the n-th sending of a request with its n-th answer (a real model answers the
   * same request differently; the trial's own history is what is replayed).
   */
  trial: z
    .strictObject({
      scenario: z.string(),
      config: z.string(),
      trialIndex: z.number().int().min(0),
      seed: z.number().int(),
      /**
       * Set when the trial ended `infra-error`: the provider failed (this message), the trial was not judged, and
       * there is nothing to replay past it.
       */
      infraError: z.string().optional(),
    })
    .optional(),
  entries: z.array(EntrySchema),
});
export type CassetteTrial = NonNullable<CassetteFile['trial']>;
export type CassetteFile = z.infer<typeof CassetteFileSchema>;

/** Response headers worth replaying: what a client decides on. Everything else (ids, cookies, rate-limit accounting) is left out. */
export const KEPT_RESPONSE_HEADERS = ['content-type', 'retry-after', 'retry-after-ms', 'x-should-retry'] as const;

/** The key a request is found by: JSON bodies compare as canonical JSON, so key order and whitespace do not matter. */
export const requestKey = (method: string, path: string, body: unknown): string =>
  `${method.toUpperCase()} ${path}\u0000${canonicalJson(body)}`;

/** A body as it is kept: the parsed JSON, or the text when it is not JSON (a stream of server-sent events, say). */
export function bodyValue(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Recorded model answers, looked up by request. */
export class Cassette {
  readonly #entries: CassetteEntry[] = [];
  readonly #byKey = new Map<string, CassetteEntry>();
  /** A trial's recording: every answer to each request, in order, and how many of them were used. */
  readonly #inOrder = new Map<string, { readonly answers: CassetteEntry[]; used: number }>();

  constructor(
    readonly api: 'openai' | 'anthropic',
    entries: readonly CassetteEntry[] = [],
    /** Set for one live trial's recording (see `CassetteFileSchema.trial`). */
    readonly trial?: CassetteTrial,
  ) {
    for (const e of entries) this.add(e);
  }

  /** Reads a cassette file's text; bad content fails naming the file and the path inside it. */
  static parse(text: string, file: string): Cassette {
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch (error) {
      throw new FaultlineError(
        FaultlineErrorCode.ScenarioInvalid,
        `${file}: not valid JSON: ${(error as Error).message}`,
      );
    }
    // Request bodies are compared as canonical JSON, a recursive walk: refuse what would overflow it.
    if (jsonTooDeepAt(text) !== undefined)
      throw new FaultlineError(FaultlineErrorCode.ScenarioInvalid, `${file}: ${tooDeepText()}`);
    // JSON.parse keeps the last of two equal keys: a second "api" would silently win.
    const dup = findDuplicateKey(text);
    if (dup)
      throw new FaultlineError(
        FaultlineErrorCode.ScenarioInvalid,
        `${file}:${dup.line}:${dup.col}: ${formatPath(dup.path)}: the key "${dup.key}" appears twice; expected each key once per object`,
      );
    const version = (value as { version?: unknown } | null)?.version;
    if (
      typeof value === 'object' &&
      value !== null &&
      (value as { faultline?: unknown }).faultline === 'cassette' &&
      typeof version === 'number' &&
      version > CASSETTE_VERSION
    ) {
      throw new FaultlineError(
        FaultlineErrorCode.ScenarioInvalid,
        `${file}: version: ${version} is a cassette from a newer faultline; this one reads version ` +
          `${CASSETTE_VERSION} (upgrade faultline, or re-record it)`,
      );
    }
    const parsed = CassetteFileSchema.safeParse(value);
    if (!parsed.success) {
      const lines = formatIssues(parsed.error.issues);
      throw new FaultlineError(
        FaultlineErrorCode.ScenarioInvalid,
        `${file}: invalid cassette:\n${lines.map((l) => `  - ${l}`).join('\n')}`,
        { source: file, issues: lines },
      );
    }
    return new Cassette(parsed.data.api, parsed.data.entries, parsed.data.trial);
  }

  get entries(): readonly CassetteEntry[] {
    return this.#entries;
  }

  find(method: string, path: string, body: unknown): CassetteEntry | undefined {
    const key = requestKey(method, path, body);
    if (this.trial === undefined) return this.#byKey.get(key);
    // A trial's recording answers each sending with the answer that sending got; past the last, the last again.
    const sent = this.#inOrder.get(key);
    if (sent === undefined) return undefined;
    const answer = sent.answers[Math.min(sent.used, sent.answers.length - 1)];
    sent.used++;
    return answer;
  }

  /** Keeps the first answer to a request: a retry of it (or a later trial) is answered the same. A trial's recording keeps every one. */
  add(entry: CassetteEntry): void {
    const key = requestKey(entry.request.method, entry.request.path, entry.request.body);
    if (this.trial !== undefined) {
      const sent = this.#inOrder.get(key) ?? { answers: [], used: 0 };
      sent.answers.push(entry);
      this.#inOrder.set(key, sent);
      this.#entries.push(entry);
      return;
    }
    if (this.#byKey.has(key)) return;
    this.#byKey.set(key, entry);
    this.#entries.push(entry);
  }

  /** Why a request is not in the cassette, with a diff against the closest one that is. */
  missMessage(method: string, path: string, body: unknown, file: string): string {
    const head =
      `${method.toUpperCase()} ${path}: the cassette ${file} holds no answer to this request ` +
      `(re-record it with faultline run --record)`;
    const same = this.#entries.filter((e) => e.request.method === method.toUpperCase() && e.request.path === path);
    if (same.length === 0) return `${head}; it recorded no ${method.toUpperCase()} ${path} at all`;
    const { index, diff } = closestDiff(
      same.map((e) => e.request.body),
      body,
    );
    return `${head}; the closest recorded request (entry ${this.#entries.indexOf(same[index]!)}) differs:\n${diff}`;
  }

  /** The file's content: stable, pretty JSON, one entry per distinct request in the order first sent. */
  toJSON(): CassetteFile {
    return {
      faultline: 'cassette',
      version: CASSETTE_VERSION,
      api: this.api,
      ...(this.trial && { trial: { ...this.trial } }),
      entries: this.#entries.map((e) => ({ request: { ...e.request }, response: { ...e.response } })),
    };
  }
}
