import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlanFile } from './loadPlanFile.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faultline-plan-file-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('loadPlanFile (mcp-proxy --plan)', () => {
  it(
    'a "__proto__" key anywhere in a plan is refused with its path, in YAML, JSON or a file of another ' +
      'name (it named the fault kind, or was dropped)',
    async () => {
      // Where the key goes: beside the rule's match and fault, inside the match, inside the fault.
      const places = fc.constantFrom(
        {
          yaml: '- match: { tool: add_note }\n  fault: { kind: timeout }\n  __proto__: { x: 1 }\n',
          json: '[{"match":{"tool":"add_note"},"fault":{"kind":"timeout"},"__proto__":{"x":1}}]',
          path: '[0].__proto__',
        },
        {
          yaml: '- match: { tool: add_note, __proto__: { tool: x } }\n  fault: { kind: timeout }\n',
          json: '[{"match":{"tool":"add_note","__proto__":{"tool":"x"}},"fault":{"kind":"timeout"}}]',
          path: '[0].match.__proto__',
        },
        {
          yaml: '- match: { tool: add_note }\n  fault: { __proto__: { kind: timeout } }\n',
          json: '[{"match":{"tool":"add_note"},"fault":{"__proto__":{"kind":"timeout"}}}]',
          path: '[0].fault.__proto__',
        },
      );
      let n = 0;
      await fc.assert(
        fc.asyncProperty(places, fc.constantFrom('.yaml', '.json', '.plan'), async (place, ext) => {
          const file = join(dir, `plan-${n++}${ext}`);
          await writeFile(file, ext === '.json' ? place.json : place.yaml);
          await expect(loadPlanFile(file)).rejects.toThrow(
            `${file}: ${place.path}: the key "__proto__" is not allowed`,
          );
        }),
        { numRuns: 12, seed: 43 },
      );
    },
  );

  it('a good plan still loads, in either form', async () => {
    const file = join(dir, 'good.yaml');
    await writeFile(
      file,
      'faults:\n  - match: { tool: add_note }\n    fault: { kind: timeout }\nrisks: { add_note: write }\n',
    );
    await expect(loadPlanFile(file)).resolves.toMatchObject({
      plan: [{ match: { tool: 'add_note' }, fault: { kind: 'timeout' } }],
      risks: { add_note: 'write' },
    });
  });
});
