import type { z } from 'zod';
import type { ToolErrorFeedback } from './result.js';

type FieldError = NonNullable<ToolErrorFeedback['field_errors']>[number];

const pathText = (path: readonly PropertyKey[]): string => (path.length === 0 ? '(input)' : path.map(String).join('.'));

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/**
 * Each bad field and what it requires (R14), phrased for a model to fix its next call:
 * `{ path: 'date', expected: 'required: string' }`.
 */
export function fieldErrors(error: z.ZodError, input: unknown): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    const path = pathText(issue.path);
    switch (issue.code) {
      case 'invalid_type':
        return [
          {
            path,
            expected: valueAt(input, issue.path) === undefined ? `required: ${issue.expected}` : `${issue.expected}`,
          },
        ];
      case 'invalid_value':
        return [{ path, expected: `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` }];
      case 'unrecognized_keys':
        return issue.keys.map((key) => ({
          path: pathText([...issue.path, key]),
          expected: 'no such field: remove it',
        }));
      default:
        return [{ path, expected: issue.message }];
    }
  });
}
