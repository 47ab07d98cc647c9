import type { ScriptPlanInput } from './script.js';

/** A step that starts a deploy and polls its job each second, at most three times, until it succeeds. */
export const POLLING_DEPLOY: ScriptPlanInput['steps'][number] = {
  name: 'deploy',
  tool: 'start_deploy',
  input: { app: 'web' },
  subject: 'deploy:web-1',
  poll: {
    tool: 'get_job',
    input: { job: '$deploy.job_id' },
    until: { path: 'state', in: ['succeeded'] },
    everyMs: 1_000,
    maxPolls: 3,
  },
};
