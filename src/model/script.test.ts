import { describe, expect, it } from 'vitest';
import { POLLING_DEPLOY } from './pollingDeploy.testkit.js';
import { ScriptPlanSchema } from './script.js';

const messages = (plan: unknown): string[] => {
  const parsed = ScriptPlanSchema.safeParse(plan);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('ScriptPlanSchema', () => {
  it('accepts a plan whose placeholders name earlier steps, and fills poll defaults', () => {
    const plan = ScriptPlanSchema.parse({
      steps: [POLLING_DEPLOY, { tool: 'send_email', input: { job: '$deploy.job_id' } }],
    });
    expect(plan.steps[0]?.poll?.until.failIn).toEqual(['failed', 'cancelled']);
  });

  it('rejects references to later or missing steps, duplicate names, bad subjects and unknown keys', () => {
    expect(
      messages({
        steps: [
          { name: 'a', tool: 't', input: { x: '$b.id' }, fixes: { y: '$nope' } },
          { name: 'a', tool: 't', input: {}, subject: 'no-colon', extra: 1 },
          { name: 'b', tool: 't', input: { x: '$a.id' } },
        ],
      }),
    ).toEqual([
      'steps.1.subject: a subject is service:businessKey',
      'steps.1: Unrecognized key: "extra"',
      'steps.0.input: "$b" names no earlier step',
      'steps.0.fixes: "$nope" names no earlier step',
      'steps.1.name: step name "a" is used twice',
    ]);
    expect(messages({ steps: [] })).toEqual(['steps: Too small: expected array to have >=1 items']);
  });

  it('checks ifEmpty and forEach: a placeholder naming an earlier step; $item only inside a forEach step; no forEach with a poll', () => {
    expect(
      messages({
        steps: [
          { name: 'list', tool: 'list', input: {} },
          { tool: 't', ifEmpty: '$list', input: {} },
          { tool: 't', forEach: '$list.items', input: { id: '$item.id' } },
        ],
      }),
    ).toEqual([]);
    expect(
      messages({
        steps: [
          { name: 'list', tool: 'list', input: {} },
          { tool: 't', ifEmpty: 'list', input: { id: '$item.id' } },
          { tool: 't', forEach: '$later', input: {} },
          {
            tool: 't',
            forEach: '$list',
            input: {},
            poll: { tool: 'get', input: {}, until: { path: 'state', in: ['done'] }, everyMs: 1, maxPolls: 1 },
          },
          { name: 'later', tool: 't', input: {} },
        ],
      }),
    ).toEqual([
      'steps.1.ifEmpty: ifEmpty is a placeholder naming an earlier step, like $found',
      'steps.1.input: "$item" names no earlier step',
      'steps.2.forEach: "$later" names no earlier step',
      'steps.3.forEach: a forEach step cannot also poll; poll in a step of its own',
    ]);
  });
});
