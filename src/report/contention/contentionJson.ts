import { z } from 'zod';
import type { ContentionComparison } from '../../runner/contention/compareContention.js';

const count = z.number().int().nonnegative();
const rate = z.number().min(0).max(1);
const ms = z.number().nonnegative();

const FlagSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('amplification'), maxDeliveriesPerCall: count, limit: count, calls: count }),
  z.strictObject({ kind: z.literal('duplicates'), duplicates: count }),
  z.strictObject({ kind: z.literal('unfinished'), agents: count, atMs: ms }),
]);

const ContentionResultSchema = z.strictObject({
  config: z.string(),
  kind: z.enum(['runtime', 'cockatiel', 'p-retry']),
  description: z.string(),
  metrics: z.strictObject({
    trials: count,
    agents: count,
    logicalCalls: count,
    deliveries: count,
    amplification: z.number().nonnegative(),
    maxDeliveriesPerCall: count,
    completionMs: z.strictObject({ p50: ms, p95: ms, max: ms }),
    successRate: rate,
    passHat: z.array(rate),
    duplicates: count,
    budgetViolations: count,
    throttled: z.strictObject({ responses: count, ms }),
    unfinished: count,
    flags: z.array(FlagSchema),
  }),
  /** Deliveries per virtual second, bucket by bucket (`loadBucketMs` wide) from the first trial. */
  load: z.array(z.number().nonnegative()),
  historyHashes: z.array(z.string().regex(/^[0-9a-f]{64}$/)),
});

/** One contention scenario with every configuration compared under it (`faultline compare --contention`). */
export const ContentionComparisonSchema = z.strictObject({
  scenario: z.strictObject({ name: z.string(), title: z.string(), description: z.string(), agents: count, callsPerAgent: count, service: z.string() }),
  seed: z.number().int(),
  trials: count,
  maxDeliveriesPerCall: count,
  loadBucketMs: z.number().positive(),
  results: z.array(ContentionResultSchema),
});
export type ContentionComparisonJson = z.infer<typeof ContentionComparisonSchema>;

// Copied field by field so the report's shape is the schema's, whatever the engine adds later.
export function contentionJson(c: ContentionComparison): ContentionComparisonJson {
  return {
    scenario: { ...c.scenario },
    seed: c.seed,
    trials: c.trials,
    maxDeliveriesPerCall: c.maxDeliveriesPerCall,
    loadBucketMs: c.loadBucketMs,
    results: c.results.map((r) => {
      const m = r.metrics;
      return {
        config: r.config,
        kind: r.kind,
        description: r.description,
        metrics: {
          trials: m.trials,
          agents: m.agents,
          logicalCalls: m.logicalCalls,
          deliveries: m.deliveries,
          amplification: m.amplification,
          maxDeliveriesPerCall: m.maxDeliveriesPerCall,
          completionMs: { ...m.completionMs },
          successRate: m.successRate,
          passHat: [...m.passHat],
          duplicates: m.duplicates,
          budgetViolations: m.budgetViolations,
          throttled: { ...m.throttled },
          unfinished: m.unfinished,
          flags: m.flags.map((f) => ({ ...f })),
        },
        load: [...r.load],
        historyHashes: [...r.historyHashes],
      };
    }),
  };
}
