import { z } from 'zod';
import { NetworkSchema } from '../faults/network.js';
import { BUILTIN_CHECKERS } from '../checks/index.js';
import { NAMED_SERVICES, isBuiltinService } from '../world/createWorld.js';
import {
  CommandAgentSchema,
  FunctionAgentSchema,
  HttpAgentDataSchema,
  HttpAgentSchema,
  HttpTransportSchema,
  ModelEndpointSchema,
  ReaderSchema,
  ScriptedAgentSchema,
  ServiceRefSchema,
} from '../scenario/scenario.js';
import { BudgetSchema } from '../scenario/goalSchemas.js';

const nameSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._-]*$/,
    'expected a short lowercase name such as "openai-sdk" (it labels the agent\'s cells)',
  );

/**
 * An agent of the matrix: a scenario's agent (any kind) with a `name`, and without its `task`
 * (each scenario gives its own with `agent: { task }`; an agent's `task` is the fallback). A
 * `{ name, module }` entry with no kind is an `http` agent; its module is read from the config file's folder.
 */
const named = <T extends z.ZodObject>(schema: T) =>
  schema.extend({ name: nameSchema, task: z.string().min(1).optional() });
export const ProjectAgentSchema = z.preprocess(
  (v) =>
    typeof v === 'object' && v !== null && !('kind' in v) && ('module' in v || 'run' in v) ? { ...v, kind: 'http' } : v,
  z.union([
    named(HttpAgentDataSchema),
    named(HttpAgentSchema),
    named(CommandAgentSchema),
    named(ScriptedAgentSchema.extend({ plan: ScriptedAgentSchema.shape.plan.optional() })),
    named(FunctionAgentSchema),
  ]),
);
export type ProjectAgent = z.input<typeof ProjectAgentSchema>;

/** A default agent for scenarios that name none, as in a scenario (its `task` may come from the scenario). */
const DefaultAgentSchema = z.union([
  HttpAgentDataSchema.extend({ task: z.string().min(1).optional() }),
  HttpAgentSchema.extend({ task: z.string().min(1).optional() }),
  CommandAgentSchema,
  ScriptedAgentSchema.extend({ task: z.string().min(1).optional(), plan: ScriptedAgentSchema.shape.plan.optional() }),
  FunctionAgentSchema.extend({ task: z.string().min(1).optional() }),
]);

/**
 * A default service by name: a module path (read from the config file's folder) or a built-in,
 * checked here so a misspelt built-in is blamed on `defaults.services`, not on the first scenario.
 */
const ServiceName = z
  .string()
  .min(1)
  .refine((s) => /[./\\]/.test(s) || isBuiltinService(s), {
    error: (issue) =>
      `"${String(issue.input)}" is not a built-in service (${NAMED_SERVICES.join(', ')}) nor a module path such as ./tickets.service.ts`,
  });

/** `defaults` in faultline.config.ts: scenario fields, each given whole to every scenario that leaves it out. */
export const ProjectDefaultsSchema = z
  .object({
    /** Built-in names, module paths (from the config file's folder) or `defineService` definitions. */
    services: z
      .array(z.union([ServiceName, ServiceRefSchema]))
      .min(1)
      .optional(),
    model: ModelEndpointSchema.extend({ readToolResult: z.union([z.string().min(1), ReaderSchema]).optional() })
      .strict()
      .optional(),
    http: HttpTransportSchema.optional(),
    network: NetworkSchema.optional(),
    budget: BudgetSchema.optional(),
    checks: z
      .array(z.enum(BUILTIN_CHECKERS.map((c) => c.name) as [string, ...string[]]))
      .min(1)
      .optional(),
    agent: DefaultAgentSchema.optional(),
  })
  .strict();
export type ProjectDefaults = z.input<typeof ProjectDefaultsSchema>;
