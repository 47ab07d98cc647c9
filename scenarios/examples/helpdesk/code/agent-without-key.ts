/** The same agent on the buggy tool: no Idempotency-Key, so a resend opens a second ticket. */
import { defineHttpAgent } from 'faultline';
import { openTicket } from './openTicket.js';

export default defineHttpAgent(async ({ services }) => {
  const result = await openTicket(
    services['helpdesk']!.baseUrl,
    { requestId: 'req-42', subject: 'Printer on fire' },
    { withKey: false },
  );
  return result.ok
    ? { outcome: 'completed', claims: [{ subject: 'helpdesk:req-42', status: 'succeeded' }] }
    : { outcome: 'failed', message: result.detail };
});
