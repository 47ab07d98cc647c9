import { describe, expect, it } from 'vitest';
import { DEFAULT_TRIAL_START, runWithMsw } from '../../src/public/msw.js';
import { expectRecorded, HEAD_OPTIONS_FAULTS, NOTES_CASES, notesTrial, sendWithFetch, sendWithNodeHttp } from './notesApi.js';

describe('msw adapter: a user’s own API, every method, in its own shape', () => {
  for (const c of NOTES_CASES) {
    describe(c.name, () => {
      it('node:http sees it', async () => {
        const trial = notesTrial();
        const run = await runWithMsw(trial.faults, trial.clock, () => sendWithNodeHttp(c.send));
        expect(run.kind === 'settled' && run.value).toEqual(c.expect);
        if (c.input !== undefined) expect(trial.seen).toEqual([c.input]);
        expectRecorded(trial, c);
      });

      // undici's fetch refuses TRACE before sending anything (a forbidden method in the Fetch standard).
      if (c.send.method !== 'TRACE') {
        it('global fetch sees it', async () => {
          const trial = notesTrial();
          const run = await runWithMsw(trial.faults, trial.clock, () => sendWithFetch(c.send));
          expect(run.kind === 'settled' && run.value).toEqual(c.expect);
        });
      }
    });
  }

  for (const c of HEAD_OPTIONS_FAULTS) {
    it(`faulted: ${c.name}`, async () => {
      for (const send of [sendWithNodeHttp, sendWithFetch]) {
        const trial = notesTrial(c.plan);
        const run = await runWithMsw(trial.faults, trial.clock, () => send(c.send));
        expect(run).toEqual({ kind: 'settled', value: c.expect, at: trial.clock.now() });
        expect(trial.clock.now() - DEFAULT_TRIAL_START).toBe(c.at);
        expect(trial.history.events.slice(0, 2)).toMatchObject([
          { type: 'http_request', method: c.send.method, attempt: 1 },
          { type: 'fault', method: c.send.method, fault: c.plan[0]!.fault },
        ]);
      }
    });
  }
});
