import { runWithNock } from '../../src/faults/http/nock.js';
import { faultKindsSuite } from './faultKindsSuite.js';
import { type FaultCase } from './faultCases.js';
import { postWithAxios } from './support.js';

/** nock builds its response from a status code alone, and names one Node does not know (529) `unknown`. */
const nockView = (seen: FaultCase['axios']): FaultCase['axios'] =>
  'status' in seen && seen.status === 529 ? { ...seen, statusText: 'unknown' } : seen;

faultKindsSuite('nock', runWithNock, [
  { name: 'axios (node:http)', post: postWithAxios, sees: (c) => nockView(c.axios) },
]);
