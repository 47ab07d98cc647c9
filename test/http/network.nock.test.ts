import { createHttpTrial, runWithNock } from '../../src/public/nock.js';
import { describeNetworkLatency } from './networkCases.js';

describeNetworkLatency('nock', { createHttpTrial, runWith: (faults, clock, body) => runWithNock(faults, clock, body) });
