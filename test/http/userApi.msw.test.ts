import { runWithMsw } from '../../src/public/msw.js';
import { describeUserApi } from './notesApi.js';

// undici's fetch refuses TRACE before sending anything (a forbidden method in the Fetch standard), so TRACE is sent through node:http only.
describeUserApi('msw', (trial, body) => runWithMsw(trial.faults, trial.clock, body));
