import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from './jsonErrorPlace.js';

const messageOf = (text: string): string => {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} parsed`);
};

describe('jsonErrorOffset', () => {
  it('finds where JSON.parse stopped when its message quotes the text instead of a position', () => {
    // A valid document with one stray character put in it: the offset is that character's, or where the
    // message says (each message that gives a position is taken at its word).
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('#', '@', 'h', '\u0001'), (json, at, bad) => {
        const cut = at % (json.length + 1);
        const text = `${json.slice(0, cut)}${bad}${json.slice(cut)}`;
        let message: string;
        try {
          JSON.parse(text);
          return;
        } catch (error) {
          message = (error as Error).message;
        }
        const offset = jsonErrorOffset(text, message);
        const given = / at position (\d+)$/.exec(message);
        if (given) expect(offset).toBe(Number(given[1]));
        else if (message.startsWith('Unexpected token')) expect(`'${text[offset]}'`).toBe(message.slice(17, 20));
      }),
      { numRuns: 200, seed: 46 },
    );
    expect(jsonErrorOffset('{"a": hunter2}', messageOf('{"a": hunter2}'))).toBe(6);
  });
});
