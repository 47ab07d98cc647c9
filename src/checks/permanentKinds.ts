import type { ErrorKind } from '../core/index.js';

/** R1: retrying cannot help these. */
export const PERMANENT_KINDS: readonly ErrorKind[] = [
  'invalid_argument',
  'permission_denied',
  'not_found',
  'conflict',
  'internal',
];
