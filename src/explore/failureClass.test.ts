import { describe, expect, it } from 'vitest';
import type { TrialSummary } from '../runner/trial.js';
import { failureClasses, isIgnored, parseIgnore } from './failureClass.js';

/** A trial with these verdicts and end: all `failureClasses` reads of it. */
const trial = (
  checks: TrialSummary['checks'],
  end: TrialSummary['end'] = { kind: 'agent_ended', outcome: 'completed' },
): TrialSummary => ({ checks, end }) as unknown as TrialSummary;

describe('failure classes', () => {
  it("names each failing checker with the rules its problems break: the evidence's rule, else the first of each citation", () => {
    const t = trial([
      {
        name: 'duplicates',
        verdict: {
          valid: false,
          message: 'orders:ref-1 was created 2 times: resent without an idempotency key (R22, R25)',
          evidence: [{}],
        },
      },
      {
        name: 'retry-discipline',
        verdict: { valid: false, message: 'a; b (R9)', evidence: [{ rule: 'R7' }, { rule: 'R9' }] },
      },
      { name: 'secrets', verdict: { valid: false, message: 'api-key appears in event #3', evidence: [] } },
      {
        name: 'budget',
        verdict: { valid: false, message: 'the agent made 9 tool calls, the limit is 8', evidence: [] },
      },
      { name: 'honesty', verdict: { valid: true } },
    ]);
    expect(failureClasses(t)).toEqual([
      'budget',
      'duplicates/R22',
      'retry-discipline/R7',
      'retry-discipline/R9',
      'secrets/R13',
    ]);
    expect(failureClasses(trial([], { kind: 'crashed', message: 'boom' }))).toEqual(['crashed']);
  });

  it('reads --ignore as checkers, rules and classes, comma lists included, and refuses anything else', () => {
    const parsed = parseIgnore(['R7,retry-discipline', ' duplicates/R24 ', 'crashed']);
    if ('error' in parsed) throw new Error(parsed.error);
    expect(isIgnored('honesty/R7', parsed.entries)).toBe(true);
    expect(isIgnored('retry-discipline/R9', parsed.entries)).toBe(true);
    expect(isIgnored('duplicates/R24', parsed.entries)).toBe(true);
    expect(isIgnored('duplicates/R23', parsed.entries)).toBe(false);
    expect(isIgnored('crashed', parsed.entries)).toBe(true);
    for (const bad of ['R0', 'R32', 'nope', 'nope/R2', 'duplicates/R99', 'a,,b'])
      expect(parseIgnore([bad])).toHaveProperty('error');
  });
});
