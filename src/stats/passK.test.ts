import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { choose, passAtK, passHatCurve, passHatK, type TaskTally } from './passK.js';

const rewards = JSON.parse(
  readFileSync(new URL('../../test/fixtures/taubench-gpt-4o-airline.rewards.json', import.meta.url), 'utf8'),
) as { task_id: number; trial: number; reward: number }[];

function tallies(rows: typeof rewards): TaskTally[] {
  const byTask = new Map<number, number[]>();
  for (const r of rows) byTask.set(r.task_id, [...(byTask.get(r.task_id) ?? []), r.reward]);
  return [...byTask.values()].map((rs) => ({ n: rs.length, c: rs.filter((r) => r === 1).length }));
}

describe('pass^k', () => {
  it("reproduces τ-bench's published gpt-4o airline figures", () => {
    const tasks = tallies(rewards);
    expect(tasks).toHaveLength(50);
    const curve = passHatCurve(tasks).map((p) => Number(p.toFixed(4)));
    expect(curve).toEqual([0.42, 0.2733, 0.22, 0.2]);
  });

  it('is the all-succeed probability, not pass@k', () => {
    const tasks = [{ n: 4, c: 2 }];
    expect(passHatK(tasks, 2)).toBeCloseTo(1 / 6, 12); // C(2,2)/C(4,2)
    expect(passAtK(tasks, 2)).toBeCloseTo(5 / 6, 12); // 1 - C(2,2)/C(4,2)
    expect(passHatK([{ n: 4, c: 1 }], 2)).toBe(0); // c < k
  });

  it('is undefined when k exceeds the trials of any task', () => {
    expect(passHatK([{ n: 3, c: 3 }], 4)).toBeUndefined();
    expect(passAtK([], 1)).toBeUndefined();
  });

  it('computes binomial coefficients', () => {
    expect([choose(4, 0), choose(4, 2), choose(3, 2), choose(10, 3), choose(10, 8), choose(3, 5)]).toEqual([
      1, 6, 3, 120, 45, 0,
    ]);
  });
});
