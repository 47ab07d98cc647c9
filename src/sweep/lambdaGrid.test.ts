import { describe, expect, it } from 'vitest';
import { mergeLambdas, parseLambdas } from './lambdaGrid.js';

const ok = (text: string): readonly number[] => {
  const r = parseLambdas(text);
  if (r.kind === 'error') throw new Error(r.message);
  return r.lambdas;
};
const error = (text: string): string => {
  const r = parseLambdas(text);
  if (r.kind === 'ok') throw new Error(`parsed ${text} as ${r.lambdas.join(',')}`);
  return r.message;
};

describe('parseLambdas', () => {
  it('reads a list, sorted', () => {
    expect(ok('0.2, 0,0.05')).toEqual([0, 0.05, 0.2]);
    expect(ok('1')).toEqual([1]);
    expect(ok('.5')).toEqual([0.5]);
  });

  it('reads a range with both ends, exact in decimal despite binary steps', () => {
    expect(ok('0:0.5:0.1')).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(ok('0.1:0.3:0.1')).toEqual([0.1, 0.2, 0.3]);
    // The end need not sit on the grid: the last point is the last step at or before it.
    expect(ok('0:0.25:0.1')).toEqual([0, 0.1, 0.2]);
    expect(ok('0.3:0.3:0.1')).toEqual([0.3]);
  });

  it('refuses what is not a probability grid, saying what was expected', () => {
    expect(error('0,1.5')).toMatch(
      /^expected a list of probabilities such as 0,0.1,0.2 or a range from:to:step such as 0:0.5:0.1; 1.5 is above 1/,
    );
    expect(error('0,x')).toMatch(/"x" is not a number/);
    expect(error('-0.1')).toMatch(/"-0.1" is not a number/);
    expect(error('0,,0.1')).toMatch(/an empty item/);
    expect(error('0.5:0:0.1')).toMatch(/the range ends \(0\) before it starts \(0.5\)/);
    expect(error('0:0.5:0')).toMatch(/the step must be above 0/);
    expect(error('0:1')).toMatch(/has 1 colons/);
    expect(error('0.1,0.10')).toMatch(/λ = 0.1 is given twice/);
    expect(error('0:1:0.0001')).toMatch(/10001 points is more than 1000/);
  });

  it('merges several flags into one grid, refusing a value given twice', () => {
    expect(mergeLambdas([[0.3], [0, 0.1]])).toEqual({ kind: 'ok', lambdas: [0, 0.1, 0.3] });
    expect(mergeLambdas([[0.3], [0.3]])).toEqual({ kind: 'error', message: 'λ = 0.3 is given twice' });
  });
});
