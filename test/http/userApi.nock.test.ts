import { runWithNock } from '../../src/public/nock.js';
import { describeUserApi } from './notesApi.js';

// nock 14 intercepts fetch too. undici's fetch refuses TRACE before sending anything (a forbidden method in the Fetch standard), so TRACE is sent through node:http only.
describeUserApi('nock', (trial, body) => runWithNock(trial.faults, trial.clock, body));
