import { createHttpTrial, runWithMsw } from '../../src/public/msw.js';
import { describeNetworkLatency } from './networkCases.js';

describeNetworkLatency('msw', { createHttpTrial, runWith: (faults, clock, body) => runWithMsw(faults, clock, body) });
