import { describe, expect, it } from 'vitest';
import { planForAgent, withAgentIndex } from './agentIndex.js';
import { ScriptPlanSchema } from '../model/script.js';

describe('{agent}: the agent index in a plan', () => {
  it('fills strings, makes a lone {agent} a number, and keeps {{agent}} literal', () => {
    expect(
      withAgentIndex({ jobId: 'job-{agent}', value: '{agent}', note: 'say {{agent}}', list: ['{agent}-a'], n: 3 }, 7),
    ).toEqual({ jobId: 'job-7', value: 7, note: 'say {agent}', list: ['7-a'], n: 3 });
  });

  it('gives each agent its own inputs, subjects and polls, leaving $step placeholders alone', () => {
    const plan = ScriptPlanSchema.parse({
      steps: [
        {
          name: 'w',
          tool: 'update_record',
          input: { record: 'rec-0', writer: 'w-{agent}', value: '{agent}' },
          subject: 'records:w-{agent}',
        },
        {
          tool: 'read_record',
          input: { record: '$w.record' },
          poll: {
            tool: 'read_record',
            input: { record: 'r{agent}' },
            until: { path: 'version', in: ['1'] },
            everyMs: 10,
            maxPolls: 1,
          },
        },
      ],
      finalMessage: 'agent {agent} done',
    });
    const mine = planForAgent(plan, 12);
    expect(mine.steps[0]).toMatchObject({
      input: { record: 'rec-0', writer: 'w-12', value: 12 },
      subject: 'records:w-12',
    });
    expect(mine.steps[1]).toMatchObject({ input: { record: '$w.record' }, poll: { input: { record: 'r12' } } });
    expect(mine.finalMessage).toBe('agent 12 done');
    expect(plan.steps[0]!.input['writer']).toBe('w-{agent}');
  });
});
