import { describeNetworkLatency } from './networkCases.js';

describeNetworkLatency('msw');
