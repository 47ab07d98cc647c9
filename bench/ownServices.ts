/**
 * What testing your own service and your own agent costs, per trial, side by side in one process:
 *   1. the helpdesk service (declared with defineService) driven in process by the scripted agent;
 *   2. the same service over HTTP under msw, driven by the team's unmodified fetch tool (an `http` agent);
 *   3. the alternative a user would write by hand: an msw handler over a Map and the same fetch
 *      tool, no faultline (no fault plan, no history, no checkers, real timers left alone).
 * Prints numbers; asserts nothing.
 *   npm run bench ownServices
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { defineScenario } from '../src/scenario/scenario.js';
import { runTrial } from '../src/runner/trial.js';
import { rulebookDefault } from '../src/runtime/config.js';
import { loadServiceModule } from '../src/scenario/loadService.js';
import { openTicket } from '../scenarios/examples/helpdesk/code/openTicket.js';
import { measure, printRow } from './measure.js';

const seconds = Number(process.env['BENCH_SECONDS'] ?? 1);
const helpdesk = await loadServiceModule(
  new URL('../scenarios/examples/helpdesk/code/helpdesk.service.ts', import.meta.url).pathname,
);

const inProcess = defineScenario({
  name: 'bench-helpdesk-in-process',
  services: [helpdesk],
  agent: {
    kind: 'scripted',
    task: 'Open a ticket',
    plan: { steps: [{ tool: 'open_ticket', input: { requestId: 'req-1', subject: 'x' } }] },
  },
  goal: { effects: { 'ticket.opened': 1 } },
});

const overHttp = defineScenario({
  name: 'bench-helpdesk-over-http',
  services: [helpdesk],
  agent: {
    kind: 'http',
    task: 'Open a ticket',
    run: async ({ services }) => {
      const r = await openTicket(services['helpdesk']!.baseUrl, { requestId: 'req-1', subject: 'x' });
      return { outcome: r.ok ? 'completed' : 'failed' };
    },
  },
  goal: { effects: { 'ticket.opened': 1 } },
});

let trial = 0;
const rows = [];
rows.push(
  await measure(
    '1. in process, scripted agent (faultline)',
    () => runTrial({ scenario: inProcess, config: rulebookDefault, runSeed: 1, trialIndex: trial++ }),
    seconds * 1_000,
  ),
);
rows.push(
  await measure(
    '2. over HTTP under msw, fetch tool (faultline)',
    () => runTrial({ scenario: overHttp, config: rulebookDefault, runSeed: 1, trialIndex: trial++ }),
    seconds * 1_000,
  ),
);

// 3. By hand: one msw server for the whole loop (cheaper than one per trial, as a user would do it).
const tickets = new Map<string, unknown>();
const server = setupServer(
  http.post('https://helpdesk.example.test/api/tickets', async ({ request }) => {
    const body = (await request.json()) as { requestId: string };
    const ticketId = `tkt-${tickets.size + 1}`;
    tickets.set(ticketId, body);
    return HttpResponse.json({ ticketId }, { status: 201 });
  }),
);
server.listen({ onUnhandledRequest: 'error' });
rows.push(
  await measure(
    '3. by hand: an msw handler and the fetch tool',
    () => openTicket('https://helpdesk.example.test/api', { requestId: 'req-1', subject: 'x' }),
    seconds * 1_000,
  ),
);
server.close();

for (const r of rows) printRow(r);
const [a, b, c] = rows;
console.log(
  `over HTTP / in process: ${(b!.meanUs / a!.meanUs).toFixed(1)}x; faultline over HTTP / by hand: ${(b!.meanUs / c!.meanUs).toFixed(1)}x (the difference buys a fresh world, the fault plan, the history and 8 checkers per trial)`,
);
