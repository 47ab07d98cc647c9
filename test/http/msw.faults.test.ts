import { runWithMsw } from '../../src/faults/http/msw.js';
import { faultKindsSuite } from './faultKindsSuite.js';
import { postWithAxios, postWithFetch } from './support.js';

faultKindsSuite('msw', runWithMsw, [
  { name: 'global fetch', post: postWithFetch, sees: (c) => c.fetch },
  { name: 'axios (node:http)', post: postWithAxios, sees: (c) => c.axios },
]);
