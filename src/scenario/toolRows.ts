import type { Risk } from '../core/index.js';
import { MODEL_OPERATION_DESCRIPTIONS, MODEL_OPERATIONS } from '../model/api/modelOperations.js';
import { BUILTIN_SERVICES, resolveServices } from '../world/createWorld.js';
import type { Scenario } from './scenario.js';

/** One tool as `faultline list --tools` shows it. */
export interface ToolRow {
  readonly tool: string;
  readonly service: string;
  readonly risk: Risk;
  readonly description: string;
}

/**
 * Every tool of the services `scenarios` use, each once, in the order the scenarios name their
 * services, then the routes of a scenario's model (`model:openai.chat.completions`…): a fault
 * rule names either in `match.tool`. A model call changes nothing in the world, so its risk is `read`.
 */
export function toolRows(scenarios: readonly Scenario[]): ToolRow[] {
  const rows: ToolRow[] = [];
  const seen = new Set<string>();
  for (const scenario of scenarios) {
    for (const service of resolveServices(scenario.services ?? BUILTIN_SERVICES)) {
      for (const tool of service.tools) {
        if (seen.has(`${service.name}/${tool.name}`)) continue;
        seen.add(`${service.name}/${tool.name}`);
        // A description that depends on options is shown with the defaults.
        const description =
          typeof tool.description === 'function'
            ? tool.description(defaultsOf(service.optionsSchema))
            : tool.description;
        rows.push({ tool: tool.name, service: service.name, risk: tool.risk, description });
      }
    }
    for (const operation of scenario.model ? MODEL_OPERATIONS[scenario.model.api] : []) {
      if (seen.has(`model/${operation}`)) continue;
      seen.add(`model/${operation}`);
      rows.push({
        tool: operation,
        service: `model (${scenario.model!.api})`,
        risk: 'read',
        description: MODEL_OPERATION_DESCRIPTIONS[operation] ?? '',
      });
    }
  }
  return rows;
}

function defaultsOf(schema: { safeParse(v: unknown): { success: boolean; data?: unknown } }): never {
  const parsed = schema.safeParse({});
  return (parsed.success ? parsed.data : {}) as never;
}
