import type { ContentionFlag } from '../../runner/contention/contentionMetrics.js';
import type { ContentionComparison, ContentionResult } from '../../runner/contention/compareContention.js';
import { formatRate, formatRatio, formatSeconds, plural } from '../format.js';

/** The comparison table's columns, the same in the console and in Markdown. */
export function contentionHeader(c: ContentionComparison): string[] {
  const k = Math.min(c.results[0]?.metrics.passHat.length ?? 1, 8);
  return ['configuration', 'kind', 'work', 'amp', 'max/call', 'p50', 'p95', 'max', 'success', `pass^${k}`, 'dup', 'budget', 'throttled'];
}

/** One row per configuration: its figures as text. */
export function contentionRow(r: ContentionResult): string[] {
  const m = r.metrics;
  return [
    r.config,
    r.kind,
    String(m.deliveries),
    formatRatio(m.amplification),
    String(m.maxDeliveriesPerCall),
    formatSeconds(m.completionMs.p50),
    formatSeconds(m.completionMs.p95),
    formatSeconds(m.completionMs.max),
    formatRate(m.successRate),
    formatRate(m.passHat.at(-1)),
    String(m.duplicates),
    String(m.budgetViolations),
    formatSeconds(m.throttled.ms),
  ];
}

/** A flag as a sentence. */
export function flagText(config: string, f: ContentionFlag): string {
  switch (f.kind) {
    case 'amplification':
      return `${config}: amplification: up to ${f.maxDeliveriesPerCall} deliveries for one logical call (limit ${f.limit}), ${plural(f.calls, 'call')} over; retry at one layer only (R10)`;
    case 'duplicates':
      return `${config}: ${plural(f.duplicates, 'duplicate effect')}: work the service did twice for callers that had given up`;
    case 'unfinished':
      return `${config}: ${plural(f.agents, 'agent')} still running when the trial stopped at ${formatSeconds(f.atMs)}`;
  }
}

/** Every flag of the comparison, configuration by configuration. */
export const contentionFlags = (c: ContentionComparison): string[] => c.results.flatMap((r) => r.metrics.flags.map((f) => flagText(r.config, f)));

/** One line naming the scenario and the run. */
export function contentionTitle(c: ContentionComparison): string {
  const s = c.scenario;
  return `${s.name}: ${plural(s.agents, 'agent')} × ${plural(s.callsPerAgent, 'call')} on one ${s.service} service, seed ${c.seed}, ${plural(c.trials, 'trial')} per configuration`;
}

/** What the columns mean, once, under the table. */
export const CONTENTION_LEGEND =
  'work: deliveries to the service (refusals included); amp: deliveries per logical call; max/call: the most for one call; p50/p95/max: virtual time per agent; ' +
  'success: agents whose every call succeeded; pass^k: chance that k agents all succeed; dup: effects done twice; budget: calls over the deliveries limit, agents over the deadline or unfinished; ' +
  'throttled: virtual time from a 429/503 to the next send, summed over calls.';
