import { formatIssues } from '../core/zodIssues.js';
import { FaultlineError, FaultlineErrorCode } from '../core/index.js';
import { JSON_SCHEMA_VERSION, JsonReportSchema, type JsonReport } from './jsonReportSchema.js';

/** Reads a JSON report back (for `faultline merge` and tools); throws `FAULTLINE_USAGE` when it is not one. */
export function parseJsonReport(text: string, source = 'report'): JsonReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `${source}: not JSON (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  const version =
    typeof value === 'object' && value !== null && 'schemaVersion' in value ? value.schemaVersion : undefined;
  // sweep.json is another report: say which file reads it rather than call its version unsupported.
  if (typeof value === 'object' && value !== null && 'sweep' in value && !('cells' in value)) {
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `${source}: a sweep report (sweep.json, schemaVersion ${String(version)}), not a run's ` +
        `faultline.json: merge reads the reports of "faultline run" (faultline view draws a sweep.json as sweep.html)`,
    );
  }
  if (version !== JSON_SCHEMA_VERSION) {
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `${source}: schemaVersion ${String(version)} is not supported (expected ${JSON_SCHEMA_VERSION})`,
    );
  }
  const parsed = JsonReportSchema.safeParse(value);
  if (!parsed.success) {
    // One line per problem with its path, as for a scenario: zod's own message is a JSON dump.
    const lines = formatIssues(parsed.error.issues);
    const shown = lines.slice(0, 10);
    const more = lines.length > shown.length ? `\n  … and ${lines.length - shown.length} more` : '';
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `${source}: not a faultline JSON report (was it edited?):\n${shown.map((l) => `  - ${l}`).join('\n')}${more}`,
      { source, issues: lines },
    );
  }
  return parsed.data;
}
