import { rawError, type AuditLog } from './audit.js';
import type { Finished } from './Finished.js';
import { redact } from './redact.js';
import type { CallOptions } from './ToolExecutor.js';

/** What the audit log is told of the executor: where to write, what to redact, which trial (R13). */
export interface AuditTarget {
  readonly audit?: AuditLog;
  readonly secrets?: readonly string[];
  readonly trial?: string;
}

/** Writes one logical call's audit entry, secrets redacted; nothing without an audit log. */
export function auditCall(target: AuditTarget, done: Finished, options: CallOptions, latencyMs: number): void {
  const { audit, secrets = [], trial } = target;
  if (!audit) return;
  const { result } = done;
  audit.record(
    redact(
      {
        ...(trial !== undefined && { trial }),
        call: result.call,
        ...(done.op !== undefined && { op: done.op }),
        tool: result.tool,
        ...(options.caller !== undefined && { caller: options.caller }),
        latencyMs,
        ...(done.error !== undefined && { errorKind: done.error.kind }),
        retries: Math.max(0, result.attempts - 1),
        status: result.kind,
        ...(done.raw !== undefined && { rawError: rawError(done.raw) }),
      },
      secrets,
    ),
  );
}
