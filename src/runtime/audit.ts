import type { CallResultKind, ErrorKind } from '../core/index.js';

/** The raw error as a developer needs it, stack included (never shown to the model, R13). */
export interface RawError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  readonly code?: string;
  readonly status?: number;
}

/** One logical tool call, correlated for developers (R13). */
export interface AuditEntry {
  readonly trial?: string;
  readonly call: string;
  readonly op?: string;
  readonly tool: string;
  readonly caller?: string;
  readonly latencyMs: number;
  readonly errorKind?: ErrorKind;
  /** Attempts beyond the first. */
  readonly retries: number;
  readonly status: CallResultKind;
  readonly rawError?: RawError;
}

/** Turns whatever was thrown into a `RawError`. */
export function rawError(error: unknown): RawError {
  if (!(error instanceof Error)) return { name: typeof error, message: String(error) };
  const e = error as Error & { code?: unknown; status?: unknown };
  return {
    name: e.name,
    message: e.message,
    ...(e.stack !== undefined && { stack: e.stack }),
    ...(typeof e.code === 'string' && { code: e.code }),
    ...(typeof e.status === 'number' && { status: e.status }),
  };
}

/**
 * The developer's log: one entry per logical call. Entries arrive already redacted (the
 * executor redacts with its secrets); `sink` streams them to a logger as they come.
 */
export class AuditLog {
  readonly #entries: AuditEntry[] = [];

  constructor(private readonly sink?: (entry: AuditEntry) => void) {}

  record(entry: AuditEntry): void {
    this.#entries.push(entry);
    this.sink?.(entry);
  }

  get entries(): readonly AuditEntry[] {
    return this.#entries;
  }
}
