import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { RISKS, type Risk } from '../core/kinds.js';
import { formatIssues } from '../core/zodIssues.js';
import { FaultPlanSchema, type FaultPlan } from '../faults/plan.js';

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
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new FaultlineError(FaultlineErrorCode.PlanInvalid, `${file}: cannot read the plan (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    throw new FaultlineError(FaultlineErrorCode.PlanInvalid, `${file}: not YAML or JSON: ${(error as Error).message.split('\n')[0] ?? ''}`);
  }
  const wrapped = typeof data === 'object' && data !== null && !Array.isArray(data) && 'faults' in data;
  if (wrapped) {
    const parsed = WrappedPlanSchema.safeParse(data);
    if (parsed.success) return { plan: parsed.data.faults, ...(parsed.data.risks && { risks: parsed.data.risks }) };
    const lines = formatIssues(parsed.error.issues);
    throw new FaultlineError(
      FaultlineErrorCode.PlanInvalid,
      `${file}: invalid fault plan ({ faults: [{ match, fault }], risks: { tool: ${RISKS.join(' | ')} } }):\n${lines.map((l) => `  - ${l}`).join('\n')}`,
      { issues: lines },
    );
  }
  const parsed = FaultPlanSchema.safeParse(data);
  if (parsed.success) return { plan: parsed.data };
  const lines = formatIssues(parsed.error.issues, []);
  throw new FaultlineError(FaultlineErrorCode.PlanInvalid, `${file}: invalid fault plan (a list of { match, fault } rules):\n${lines.map((l) => `  - ${l}`).join('\n')}`, { issues: lines });
}
