/** Ids are plain strings built from per-trial counters, so the same trial always names things the same way. */
export type TrialId = string;
export type CallId = string;
export type AttemptId = string;
export type OperationId = string;
export type RequestId = string;

/** Hands out sequential ids per prefix: `call-1`, `call-2`, `op-1`… */
export class IdSource {
  readonly #counters = new Map<string, number>();

  next(prefix: string): string {
    const n = (this.#counters.get(prefix) ?? 0) + 1;
    this.#counters.set(prefix, n);
    return `${prefix}-${n}`;
  }
}
