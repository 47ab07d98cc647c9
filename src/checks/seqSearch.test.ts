import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { firstAfter, lastBefore } from './seqSearch.js';

const ascending = fc
  .uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 20 })
  .map((seqs) => seqs.sort((a, b) => a - b));

describe('seqSearch', () => {
  test.prop([ascending, fc.integer({ min: -2, max: 62 })])(
    'firstAfter and lastBefore find what a scan finds',
    (seqs, seq) => {
      // The definitions: the first index whose seq is greater, the last whose seq is smaller.
      const first = seqs.findIndex((s) => s > seq);
      expect(firstAfter(seqs, seq)).toBe(first === -1 ? seqs.length : first);
      expect(lastBefore(seqs, seq)).toBe(seqs.findLastIndex((s) => s < seq));
    },
  );
});
