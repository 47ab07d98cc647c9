/**
 * Streamed model answers read by plain node:http clients through msw: the whole stream ends
 * with `end`; a cut, a stall and a malformed event each look as they would from a real server.
 */
import { describe } from 'vitest';
import { runWithMsw } from '../../src/faults/http/msw.js';
import { nodeHttpStreamCases } from './nodeHttpStreams.js';

describe('node:http stream clients through msw', () => nodeHttpStreamCases(runWithMsw));
