import { describe, expect, it } from 'vitest';
import { findDuplicateKey } from './jsonDuplicateKey.js';

describe('findDuplicateKey', () => {
  it('finds a key repeated in a nested object, with its path and position', () => {
    const text = '{\n  "faults": [\n    { "fault": 1, "match": {}, "fault": 2 }\n  ]\n}';
    expect(findDuplicateKey(text)).toEqual({ key: 'fault', path: ['faults', 0], line: 3, col: 32 });
  });

  it('compares keys decoded, and ignores equal keys in different objects', () => {
    expect(findDuplicateKey('{ "a": 1, "\\u0061": 2 }')?.key).toBe('a');
    expect(findDuplicateKey('{ "a": { "a": 1 }, "b": [{ "a": 1 }, { "a": "}\\"" }] }')).toBeUndefined();
  });

  it('accepts scalars, empty containers and strings holding braces', () => {
    for (const text of ['1', '"x"', 'null', '[]', '{}', '[1, true, {"k": "{\\"k\\": 1, \\"k\\": 2}"}]'])
      expect(findDuplicateKey(text), text).toBeUndefined();
  });
});
