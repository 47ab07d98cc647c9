/**
 * What `faultline init` writes: a config, one service declared with `defineService`, an agent,
 * a scenario that puts the two under a fault, and a CI workflow. Each file is a working
 * example to edit, not a stub: `npx faultline run` passes on them as written.
 */

/** The project config, its scenarios found by `scenarios` (a glob). */
export const configFor = (scenarios: string): string => `import { defineConfig } from 'faultline';

// Defaults for \`faultline run\` and \`faultline compare\`; flags on the command line win.
export default defineConfig({
  scenarios: ['${scenarios}'],
  retryConfigs: ['rulebook'],
  k: 4,
  seed: 1,
  outDir: 'reports/faultline',
  gates: ['pass^4>=1', 'duplicates==0', 'budget_violations==0'],
});
`;

export const CONFIG = configFor('faultline/scenarios/*.scenario.ts');

export const SERVICE = `import { defineService, ServiceError, z } from 'faultline';

interface Ticket {
  requestId: string;
  subject: string;
  status: 'open' | 'closed';
}

/**
 * A stand-in for the API your agent's tools call: its state, its tools and their side effects.
 * faultline injects faults between the agent and this service and checks what it ended up with.
 */
export default defineService({
  name: 'helpdesk',
  description: 'A helpdesk API',
  state: (): Record<string, Ticket> => ({}),
  tools: {
    create_ticket: {
      description: 'Open a ticket. requestId is your own id for the request.',
      risk: 'write',
      input: z.object({ requestId: z.string(), subject: z.string() }).strict(),
      // The field that names one business operation: how duplicates are recognised (R21, R22).
      businessKey: 'requestId',
      run(input, ctx) {
        const ticketId = ctx.id('tkt');
        ctx.state[ticketId] = { ...input, status: 'open' };
        ctx.effect('ticket.created', { key: input.requestId, data: { ticketId } });
        return { ticketId, status: 'open' };
      },
    },
    get_ticket: {
      description: 'Get one ticket by id.',
      risk: 'read',
      input: z.object({ ticketId: z.string() }).strict(),
      run({ ticketId }, ctx) {
        const ticket = ctx.state[ticketId];
        if (!ticket) throw new ServiceError(404, { code: 'ticket_not_found', message: \`no ticket \${ticketId}\`, param: 'ticketId' });
        return { ticketId, ...ticket };
      },
    },
  },
});
`;

export const AGENT = `import { defineAgent } from 'faultline';

/**
 * Your agent, or the part of it that calls tools: a plain async function. The tools go through
 * faultline's execution layer (retries, idempotency keys, reconciliation), configured by the
 * retry configuration the run uses.
 */
export default defineAgent(async ({ tools }) => {
  const subject = 'helpdesk:req-1';
  const created = await tools['create_ticket']!({ requestId: 'req-1', subject: 'The printer is on fire' });
  if (created.kind === 'ok') return { outcome: 'completed', claims: [{ subject, status: 'succeeded' }] };
  // A lost answer is not a failure (R18, R20): say so rather than guess.
  if (created.kind === 'unknown') return { outcome: 'unknown', claims: [{ subject, status: 'unknown' }] };
  return { outcome: 'failed', claims: [{ subject, status: 'failed' }] };
});
`;

export const SCENARIO = `import { defineScenario } from 'faultline';
import openTicket from '../agents/open-ticket.agent.js';
import helpdesk from '../services/helpdesk.service.js';

/**
 * One failure situation: the helpdesk commits the ticket, then the answer is lost on the way
 * back (a partial write). Resending blindly would open a second ticket; the goal is exactly one.
 */
export default defineScenario({
  name: 'helpdesk-partial-write',
  services: [helpdesk],
  faults: [{ match: { tool: 'create_ticket' }, fault: { kind: 'partial_write', lostAs: 'timeout' }, times: 1 }],
  agent: { kind: 'function', task: 'Open a ticket about the printer', fn: openTicket },
  goal: { effects: { 'ticket.created': 1 } },
});
`;

export const WORKFLOW = `# faultline: fault-injection tests of the agent's tool calls, as a CI gate.
name: faultline
on: [push, pull_request]
jobs:
  faultline:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: npm ci
      - run: npm run faultline
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: faultline-reports
          path: reports/faultline/
`;

/** The \`package.json\` script \`init\` adds. */
export const SCRIPT = { name: 'faultline', command: 'faultline run' } as const;
