import { z } from 'zod';
import { ERROR_KINDS } from '../../core/index.js';

/** What every library configuration has: a name, and what the wire call around the library does. */
export const libraryCommon = {
  name: z.string().min(1),
  description: z.string().default(''),
  /** Kinds the library's filter retries; absent: every error, as cockatiel's `handleAll` and p-retry do by default. */
  retryOn: z.array(z.enum(ERROR_KINDS)).optional(),
  /** Our per-attempt timeout around the library's call (the libraries have none of their own); `null` waits forever. */
  timeoutMs: z.number().positive().nullable().default(10_000),
};
