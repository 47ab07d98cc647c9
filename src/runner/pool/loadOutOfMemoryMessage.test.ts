import { describe, expect, it } from 'vitest';
import { isolationLimits } from './runOnWorkers.js';
import { loadOutOfMemoryMessage } from './TrialWorker.js';

describe('the refusal of a heap the scenarios cannot load under', () => {
  it('quotes --worker-heap only when the user gave it; else names the default and the flag to raise it', () => {
    expect(loadOutOfMemoryMessage(32, ['a.ts'], true)).toBe(
      '--worker-heap 32: a worker ran out of memory while loading the scenarios (a.ts) under its heap ' +
        'limit of 32 MB; give it more (the default is 512 MB)',
    );
    const byDefault = loadOutOfMemoryMessage(512, ['a.ts'], false);
    expect(byDefault).toBe(
      'a worker ran out of memory while loading the scenarios (a.ts) under the default heap limit of ' +
        '512 MB (no --worker-heap given); give it more with --worker-heap <MB>',
    );
    expect(byDefault).not.toMatch(/^--worker-heap/);
  });

  it('the run says which it was: given by the flag, or the default', () => {
    expect(isolationLimits([], { heapMb: 64 })).toMatchObject({ heapMb: 64, heapGiven: true });
    expect(isolationLimits([], undefined)).toMatchObject({ heapMb: 512, heapGiven: false });
  });
});
