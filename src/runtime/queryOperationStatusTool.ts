import { z } from 'zod';
import type { ToolContract } from '../core/index.js';

export const QUERY_OPERATION_STATUS = 'query_operation_status';

export const QueryOperationStatusInputSchema = z.object({ operation_id: z.string().min(1) }).strict();

/** The execution layer's own tool (R21, R27): asks the service how an unknown operation ended. It never resubmits. */
export const queryOperationStatusTool: ToolContract = {
  name: QUERY_OPERATION_STATUS,
  description:
    'Look up how an earlier operation ended when its result was unknown (for example after a timeout). ' +
    'Pass the operation_id from the unknown result. This only reads the status; it never submits the operation again.',
  risk: 'read',
  input: QueryOperationStatusInputSchema,
  honoursIdempotencyKeys: false,
  canQueryStatus: false,
};
