import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { safeParseOnce } from './parseOnce.js';

const counted = () => {
  let parses = 0;
  const schema = z
    .object({ steps: z.array(z.object({ tool: z.string(), repeats: z.number().default(3) })) })
    .transform((v) => {
      parses++;
      return v;
    });
  return { schema, parses: () => parses };
};

describe('safeParseOnce', () => {
  it('parses one input object once, and gives the same frozen output every time', () => {
    const { schema, parses } = counted();
    const plan = { steps: [{ tool: 'create_order' }] };
    const a = safeParseOnce(schema, plan);
    const b = safeParseOnce(schema, plan);
    expect(parses()).toBe(1);
    expect(a.success && b.success).toBe(true);
    if (!a.success || !b.success) return;
    expect(b.data).toBe(a.data);
    expect(a.data).toEqual({ steps: [{ tool: 'create_order', repeats: 3 }] });
    expect(Object.isFrozen(a.data.steps[0])).toBe(true);
    expect(() => {
      (a.data.steps as { tool: string }[]).push({ tool: 'x' });
    }).toThrow(TypeError);
  });

  it('parses an equal but different object again, and keeps no failure', () => {
    const { schema, parses } = counted();
    safeParseOnce(schema, { steps: [] });
    safeParseOnce(schema, { steps: [] });
    expect(parses()).toBe(2);
    const bad = { steps: [{ tool: 1 }] };
    expect(safeParseOnce(schema, bad).success).toBe(false);
    expect(safeParseOnce(schema, bad).success).toBe(false);
  });

  it('remembers per schema: the same object under another schema is parsed by that schema', () => {
    const input = { steps: [{ tool: 'a' }] };
    const first = counted();
    const second = counted();
    safeParseOnce(first.schema, input);
    safeParseOnce(second.schema, input);
    expect([first.parses(), second.parses()]).toEqual([1, 1]);
  });

  it('parses a primitive every time, as safeParse does', () => {
    const schema = z.number().int();
    expect(safeParseOnce(schema, 3)).toEqual({ success: true, data: 3 });
    expect(safeParseOnce(schema, 3.5).success).toBe(false);
  });
});
