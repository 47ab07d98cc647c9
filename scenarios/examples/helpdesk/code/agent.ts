/** An agent whose only tool is `openTicket`: it reports what the service answered. */
import { defineHttpAgent } from 'faultline';
import { openTicket } from './openTicket.js';

export default defineHttpAgent(async ({ services }) => {
  const result = await openTicket(services['helpdesk']!.baseUrl, { requestId: 'req-42', subject: 'Printer on fire' });
  return result.ok
    ? {
        outcome: 'completed',
        message: `opened ${result.ticketId}`,
        claims: [{ subject: 'helpdesk:req-42', status: 'succeeded' }],
      }
    : { outcome: 'failed', message: result.detail, claims: [{ subject: 'helpdesk:req-42', status: 'failed' }] };
});
