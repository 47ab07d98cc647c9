import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { RISKS, type Risk } from '../core/kinds.js';
import { formatIssues } from '../core/zodIssues.js';
import { FaultPlanSchema, type FaultPlan } from '../faults/plan.js';
import { loadFile, refuseProtoKeys } from '../scenario/loadFile.js';

const DATA_EXTENSIONS: readonly string[] = ['.yaml', '.yml', '.json'];

/** `{ faults, risks }`: the wrapped form of a plan file, which may name tools' risks. */
const WrappedPlanSchema = z
  .object({
    faults: FaultPlanSchema,
    risks: z.record(z.string().min(1), z.enum(RISKS)).optional(),
  })
  .strict();

export interface PlanFile {
  readonly plan: FaultPlan;
  readonly risks?: Readonly<Record<string, Risk>>;
}

/**
 * An `mcp-proxy --plan` file as data (its own module: the command loads it, and zod, only when it runs).
 * @throws FaultlineError `FAULTLINE_PLAN_INVALID` naming the file and the path inside it.
 */
export async function loadPlanFile(file: string): Promise<PlanFile> {
  // A .yaml or .json plan is read as a scenario file is (duplicate keys, nesting, `__proto__`, aliases refused the same way).
  const data = DATA_EXTENSIONS.includes(extname(file).toLowerCase())
    ? await loadFile(file, FaultlineErrorCode.PlanInvalid)
    : readPlanText(file);
  return planOf(data, file);
}

/** A plan file of another name, read as YAML (JSON is YAML). */
function readPlanText(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new FaultlineError(
      FaultlineErrorCode.PlanInvalid,
      `${file}: cannot read the plan (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    throw new FaultlineError(
      FaultlineErrorCode.PlanInvalid,
      `${file}: not YAML or JSON: ${(error as Error).message.split('\n')[0] ?? ''}`,
    );
  }
  // A `__proto__` key would be dropped by validation: the rule would hold less than the file says.
  refuseProtoKeys(data, file, FaultlineErrorCode.PlanInvalid);
  return data;
}

function planOf(data: unknown, file: string): PlanFile {
  const wrapped = typeof data === 'object' && data !== null && !Array.isArray(data) && 'faults' in data;
  if (wrapped) {
    const parsed = WrappedPlanSchema.safeParse(data);
    if (parsed.success) return { plan: parsed.data.faults, ...(parsed.data.risks && { risks: parsed.data.risks }) };
    const lines = formatIssues(parsed.error.issues);
    throw new FaultlineError(
      FaultlineErrorCode.PlanInvalid,
      `${file}: invalid fault plan ({ faults: [{ match, fault }], risks: { tool: ${RISKS.join(' | ')} } ` +
        `}):\n${lines.map((l) => `  - ${l}`).join('\n')}`,
      { issues: lines },
    );
  }
  const parsed = FaultPlanSchema.safeParse(data);
  if (parsed.success) return { plan: parsed.data };
  const lines = formatIssues(parsed.error.issues, []);
  throw new FaultlineError(
    FaultlineErrorCode.PlanInvalid,
    `${file}: invalid fault plan (a list of { match, fault } rules):\n${lines.map((l) => `  - ${l}`).join('\n')}`,
    { issues: lines },
  );
}
