/**
 * The setup file of the `shared` project (vitest.config.ts): each file of it must leave the process
 * as it found it, since the next file runs in the same fork over the same module graph. A file that
 * does not fails here, by name, with what it left (rather than some later file failing by order).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { processState, stateChanges, type ProcessState } from './processState.js';

let before: ProcessState | undefined;

beforeAll(() => {
  before = processState();
});

afterAll(() => {
  if (before === undefined) return;
  expect(stateChanges(before, processState()), 'what this file left in the shared process').toEqual([]);
});
