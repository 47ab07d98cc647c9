import { z } from 'zod';
import { HttpError, type Clock } from '../../core/index.js';
import type { ToolSpec } from '../tool.js';
import { AdmissionControl } from './AdmissionControl.js';
import type { CapacityConfig } from './CapacityConfig.js';
import type { ContentionService } from './ContentionService.js';
import { stackless } from '../../core/stackless.js';

export interface OptimisticOptions {
  /** Records the clients share: client i writes record i mod `records`. */
  readonly records: number;
  /** Virtual time between the transaction's read and its commit: the window a rival write can land in. */
  readonly transactionMs: number;
  readonly capacity: CapacityConfig;
}

const UpdateInput = z.object({ record: z.string().min(1), writer: z.string().min(1), value: z.number() }).strict();

/**
 * Optimistic concurrency control: `update_record` reads the record's version, works for
 * `transactionMs`, and commits only if the version it read is still current; otherwise it
 * answers 409 and changes nothing. Many clients writing one record at once collide, and
 * how they retry decides how long they all take (AWS's "Exponential Backoff And Jitter").
 */
export function optimisticService(options: OptimisticOptions, clock: Clock): ContentionService {
  const door = new AdmissionControl(options.capacity, clock);
  const versions = new Map<string, number>();
  let commits = 0;
  let conflicts = 0;
  const update: ToolSpec<z.infer<typeof UpdateInput>, { record: string; version: number }> = {
    name: 'update_record',
    description: 'Sets a shared record, if no other write committed since this one read it.',
    risk: 'idempotent-write',
    input: UpdateInput,
    honoursIdempotencyKeys: false,
    canQueryStatus: false,
    businessKeyField: 'writer',
    async run(input, ctx) {
      const admission = await door.enter();
      if (admission.kind === 'refused') throw admission.error;
      try {
        const read = versions.get(input.record) ?? 0;
        await ctx.clock.sleep(options.transactionMs);
        const current = versions.get(input.record) ?? 0;
        if (current !== read) {
          conflicts++;
          const message = `version conflict: ${input.record} is at version ${current}, this write read version ${read}`;
          throw stackless(() => new HttpError(409, message, { error: { type: 'conflict', code: 'version_conflict', message } }));
        }
        versions.set(input.record, read + 1);
        commits++;
        ctx.world.ledger.commit({
          at: ctx.clock.now(),
          service: 'records',
          effect: 'record.updated',
          key: input.writer,
          request: ctx.request,
          ...(ctx.idempotencyKey === undefined ? {} : { idempotencyKey: ctx.idempotencyKey }),
          data: { record: input.record, version: read + 1, value: input.value },
        });
        return { record: input.record, version: read + 1 };
      } finally {
        admission.release();
      }
    },
  };
  return {
    name: 'records',
    tools: [update as ToolSpec],
    tool: update.name,
    inputFor: (agent, op) => ({ record: `rec-${agent % options.records}`, writer: `a${agent}-op${op}`, value: op }),
    keyFor: (agent, op) => `a${agent}-op${op}`,
    get admission() {
      return door.stats;
    },
    snapshot: () => ({ versions: Object.fromEntries([...versions].sort(([a], [b]) => a.localeCompare(b))), commits, conflicts, admission: door.stats }),
  };
}
