import { z } from 'zod';
import { placeholdersIn } from './placeholders.js';

const InputSchema = z.record(z.string(), z.unknown());

/** Follow-up status checks after a step that starts a long task (R20). */
export const PollSchema = z
  .object({
    tool: z.string().min(1),
    /** May reference the step's own result: `{ job_id: "$deploy.job_id" }`. */
    input: InputSchema,
    until: z
      .object({
        /** Dotted path into the poll's result value, e.g. `state`. */
        path: z.string(),
        /** Values that mean the task succeeded. */
        in: z.array(z.string()).min(1),
        /** Values that mean it failed for good. */
        failIn: z.array(z.string()).default(['failed', 'cancelled']),
        /** Values that mean the result cannot be confirmed (R20): reported as `unknown`, never guessed. */
        unknownIn: z.array(z.string()).default(['unknown']),
      })
      .strict(),
    everyMs: z.number().nonnegative(),
    maxPolls: z.number().int().positive(),
  })
  .strict();
export type Poll = z.infer<typeof PollSchema>;

/** One tool call of a plan and what the model knows about it. */
export const StepSchema = z
  .object({
    /** Lets later steps use this step's result as `$name.path.to.field`. */
    name: z
      .string()
      .regex(/^[A-Za-z_][\w-]*$/, 'a step name is letters, digits, _ and -')
      .optional(),
    tool: z.string().min(1),
    input: InputSchema,
    /** The claim subject, `service:businessKey` (e.g. `orders:ref-1`). */
    subject: z
      .string()
      .regex(/^[^:]+:.+$/, 'a subject is service:businessKey')
      .optional(),
    /** Corrected input fields, applied once after an `invalid_argument` error (R14). */
    fixes: InputSchema.optional(),
    poll: PollSchema.optional(),
    /**
     * What the model does when the step's outcome is unknown and its status read finds no record
     * (R21): `reconcile` (the default) keeps asking and reports unknown; `resubmit` takes the
     * absence as proof and submits the step again, once: safe only with the same idempotency key.
     */
    onAbsent: z.enum(['reconcile', 'resubmit']).optional(),
    /**
     * `$step.path`: run this step only if that earlier result is empty (an empty list or object,
     * null, an empty string, or no such field): "look it up, create it if it is not there".
     */
    ifEmpty: z
      .string()
      .regex(/^\$[A-Za-z_]/, 'ifEmpty is a placeholder naming an earlier step, like $found')
      .optional(),
    /**
     * `$step.path`: an earlier result that is a list; the step runs once per item, in order, with
     * `$item` naming the item in `input` and `fixes`. A named step's result is the list of its results.
     */
    forEach: z
      .string()
      .regex(/^\$[A-Za-z_]/, 'forEach is a placeholder naming an earlier step, like $list.items')
      .optional(),
  })
  .strict();
export type Step = z.infer<typeof StepSchema>;

/** A scripted model's plan: data, so scenario files can hold it. */
export const ScriptPlanSchema = z
  .object({
    steps: z.array(StepSchema).min(1),
    finalMessage: z.string().optional(),
    /** How many more times a naive variant repeats a failed call (the agent's own retry layer, R10). */
    naiveRepeats: z.number().int().nonnegative().default(3),
  })
  .strict()
  .superRefine((plan, ctx) => {
    const earlier = new Set<string>();
    plan.steps.forEach((step, i) => {
      const check = (value: unknown, where: (string | number)[], known: ReadonlySet<string>): void => {
        for (const p of placeholdersIn(value)) {
          if (!known.has(p.step)) {
            ctx.addIssue({
              code: 'custom',
              path: ['steps', i, ...where],
              message: `"$${p.step}" names no earlier step`,
            });
          }
        }
      };
      // `$item` is the current item, inside a `forEach` step only.
      const known = step.forEach === undefined ? earlier : new Set([...earlier, 'item']);
      check(step.input, ['input'], known);
      if (step.fixes) check(step.fixes, ['fixes'], known);
      if (step.ifEmpty !== undefined) check(step.ifEmpty, ['ifEmpty'], earlier);
      if (step.forEach !== undefined) check(step.forEach, ['forEach'], earlier);
      if (step.forEach !== undefined && step.poll)
        ctx.addIssue({
          code: 'custom',
          path: ['steps', i, 'forEach'],
          message: 'a forEach step cannot also poll; poll in a step of its own',
        });
      if (step.name !== undefined) {
        if (earlier.has(step.name))
          ctx.addIssue({
            code: 'custom',
            path: ['steps', i, 'name'],
            message: `step name "${step.name}" is used twice`,
          });
        earlier.add(step.name);
      }
      if (step.poll) check(step.poll.input, ['poll', 'input'], earlier);
    });
  });
export type ScriptPlan = z.infer<typeof ScriptPlanSchema>;
export type ScriptPlanInput = z.input<typeof ScriptPlanSchema>;
