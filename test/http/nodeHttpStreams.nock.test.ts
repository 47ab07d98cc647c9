/**
 * Streamed model answers read by plain node:http clients through nock: the whole stream ends
 * with `end`; a cut, a stall and a malformed event each look as they would from a real server.
 */
import { describe } from 'vitest';
import { runWithNock } from '../../src/faults/http/nock.js';
import { nodeHttpStreamCases } from './nodeHttpStreams.js';

describe('node:http stream clients through nock', () => nodeHttpStreamCases(runWithNock));
