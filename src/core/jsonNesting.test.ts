import { describe, expect, it } from 'vitest';
import { jsonTooDeepAt, MAX_NESTING, valueTooDeep } from './jsonNesting.js';

describe('nesting depth', () => {
  it('finds the first bracket past the bound in JSON text, ignoring brackets inside strings', () => {
    const ok = `${'['.repeat(MAX_NESTING)}${']'.repeat(MAX_NESTING)}`;
    expect(jsonTooDeepAt(ok)).toBeUndefined();
    expect(jsonTooDeepAt(`{"a":${'['.repeat(MAX_NESTING + 1)}${']'.repeat(MAX_NESTING + 1)}}`)).toBe(
      5 + MAX_NESTING - 1,
    );
    expect(jsonTooDeepAt(`{"s":"${'['.repeat(1000)}\\"${'{'.repeat(1000)}"}`)).toBeUndefined();
    expect(jsonTooDeepAt(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toBe(MAX_NESTING);
  });

  it('measures a parsed value without recursion, and stops at cycles', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(valueTooDeep(deep)).toBe(true);
    let shallow: unknown = 1;
    for (let i = 0; i < MAX_NESTING; i++) shallow = { x: shallow };
    expect(valueTooDeep(shallow)).toBe(false);
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(valueTooDeep(cycle)).toBe(false);
  });
});
