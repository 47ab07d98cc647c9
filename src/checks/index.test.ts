import { describe, expect, it } from 'vitest';
import type { Checker } from './checker.js';
import { BUILTIN_CHECKERS, checkerByName, runCheckers } from './index.js';
import { expectations, TrialBuilder } from './testing.js';

function cleanTrial(): TrialBuilder {
  const b = new TrialBuilder();
  b.turn();
  const c = b.call('create_order', { clientReference: 'ref-1' });
  c.attempt({ key: 'k1', error: 'timeout', ms: 100 });
  b.advance(200);
  c.attempt({ key: 'k1', commit: { service: 'orders', effect: 'order.created', key: 'ref-1' } });
  c.outcome('ok');
  b.turn('final').agentEnd('completed', [{ subject: 'orders:ref-1', status: 'succeeded' }]);
  return b;
}

describe('checks index', () => {
  it('lists the built-in checkers in report order and finds them by name', () => {
    expect(BUILTIN_CHECKERS.map((c) => c.name)).toEqual([
      'goal-state',
      'duplicates',
      'budget',
      'retry-discipline',
      'amplification',
      'model-retries',
      'honesty',
      'secrets',
      'process-cleanup',
      'recovery',
      'model-mistakes',
    ]);
    expect(checkerByName('retry-discipline')?.rules).toContain('R23');
    expect(checkerByName('nope')).toBeUndefined();
  });

  it('passes a clean trial on every built-in checker', () => {
    const results = runCheckers(
      cleanTrial().build(),
      expectations({ goal: { effects: { 'order.created': 1 } }, secrets: ['sk-1'] }),
    );
    expect(results).toEqual(BUILTIN_CHECKERS.map((c) => ({ name: c.name, verdict: { valid: true } })));
  });

  it('turns a throwing checker into an unknown verdict and still runs the others', () => {
    const broken: Checker = {
      name: 'broken',
      rules: [],
      description: 'throws',
      check() {
        throw new Error('oops');
      },
    };
    const results = runCheckers(cleanTrial().build(), expectations(), [broken, checkerByName('budget')!]);
    expect(results).toEqual([
      { name: 'broken', verdict: { valid: 'unknown', message: 'checker broken threw: oops' } },
      { name: 'budget', verdict: { valid: true } },
    ]);
  });
});
