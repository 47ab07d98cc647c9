import { HttpError, isHttpError } from '../../core/index.js';
import type { StoredResult } from '../idempotency.js';

/** An error as a row keeps it: enough to throw the same thing again. */
type StoredError =
  | {
      readonly kind: 'http';
      readonly status: number;
      readonly message: string;
      readonly body?: unknown;
      readonly headers: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'error'; readonly name: string; readonly message: string };

type StoredRow =
  { readonly kind: 'value'; readonly value?: unknown } | { readonly kind: 'error'; readonly error: StoredError };

/** The first result for a key as JSON text: a value, or the error it threw (R24: even a 500 is replayed). */
export function encodeResult(result: StoredResult): string {
  if (result.kind === 'value') return JSON.stringify({ kind: 'value', value: result.value } satisfies StoredRow);
  return JSON.stringify({ kind: 'error', error: encodeError(result.error) } satisfies StoredRow);
}

/** The stored result back as the in-memory table holds it, with the error rebuilt. */
export function decodeResult(text: string): StoredResult {
  const row = JSON.parse(text) as StoredRow;
  if (row.kind === 'value') return { kind: 'value', value: row.value };
  return { kind: 'error', error: decodeError(row.error) };
}

function encodeError(error: unknown): StoredError {
  if (isHttpError(error)) {
    return {
      kind: 'http',
      status: error.status,
      message: error.message,
      ...(error.body === undefined ? {} : { body: error.body }),
      headers: error.headers,
    };
  }
  if (error instanceof Error) return { kind: 'error', name: error.name, message: error.message };
  return { kind: 'error', name: 'Error', message: String(error) };
}

function decodeError(stored: StoredError): Error {
  if (stored.kind === 'http') return new HttpError(stored.status, stored.message, stored.body, stored.headers);
  const error = new Error(stored.message);
  error.name = stored.name;
  return error;
}
