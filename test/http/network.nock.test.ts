import { describeNetworkLatency } from './networkCases.js';

describeNetworkLatency('nock');
