/**
 * report.html of a `--live` run against the fake provider (test/live/fakeModelServer.ts), in
 * headless Chromium: a failing live trial shows the messages exchanged with the model (the task
 * and tool results sent, the model's answers and tool calls), with secrets scrubbed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { faultline } from '../cli/faultline.js';
import { liveHarness } from '../live/liveHarness.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumRequired, hasChromium, openOffline } from './chromium.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/', import.meta.url));
const KEY = 'sk-live-html-0123456789abcdef';
const BADGE = 'badge-7731-QX';

const { serve, project } = liveHarness('live-html');

describe.skipIf(!hasChromium && !chromiumRequired)('report.html of a live run in headless Chromium', () => {
  it("shows a failing live trial's model messages, sent and answered, with secrets scrubbed", async () => {
    // Half the first turns open one ticket, the others claim success without it; the goal wants two, so every trial fails and is kept.
    const server = await serve({ seed: 3, callProbability: 0.5, tickets: 1 });
    const dir = await project({
      'coin.yaml': `name: live-html
services: [${join(EXAMPLES, 'helpdesk/code/helpdesk.service.ts')}]
model: { api: openai, baseUrl: ${server.url} }
secrets: [${BADGE}]
agent:
  kind: http
  task: Open a ticket about the printer that is on fire; my badge is ${BADGE}.
  module: ${join(EXAMPLES, 'sdk-agents/code/openaiAgent.ts')}
goal:
  effects: { ticket.opened: 2 }
  outcome: [completed]
`,
    });
    const r = await faultline(['run', 'coin.yaml', '--live', '--k', '4', '--workers', '0', '--html', '--out', 'out'], {
      cwd: dir,
      env: { OPENAI_API_KEY: KEY },
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const file = join(dir, 'out', 'report.html');
    const html = await readFile(file, 'utf8');
    expect(html).not.toContain(BADGE);
    expect(html).not.toContain(KEY);

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const { page, errors, requests } = await openOffline(browser, file, { width: 1400, height: 1000 });
      const trials: {
        heading: string | null;
        title: string | null;
        exchanges: string[];
        calls: string[];
        results: string[];
      }[] = [];
      for (const button of await page.locator('button.trial').all()) {
        await button.click();
        trials.push({
          heading: await page.locator('#trial h2').textContent(),
          title: await page.locator('#trial h3', { hasText: 'model messages' }).textContent(),
          exchanges: await page.locator('ol.exchanges li.exchange').allInnerTexts(),
          calls: await page.locator('ol.exchanges .msg.call').allInnerTexts(),
          results: await page.locator('ol.exchanges .msg.sent.role-tool').allInnerTexts(),
        });
      }
      await page.screenshot({ path: join(dir, 'live-report.png'), fullPage: true });
      await page.close();
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      expect(trials).toHaveLength(4);
      for (const t of trials) {
        expect(t.heading).toMatch(/^trial \d+: failed/);
        // The task as the agent sent it, the secret in it scrubbed.
        expect(t.exchanges[0]).toContain('Open a ticket about the printer that is on fire; my badge is [REDACTED].');
      }
      // A trial whose model claimed success at once: one request, its answer the claim.
      const claimed = trials.filter((t) => t.exchanges.length === 1);
      const called = trials.filter((t) => t.exchanges.length === 2);
      expect(claimed.length).toBeGreaterThan(0);
      expect(called.length).toBeGreaterThan(0);
      expect(claimed[0]!.title).toBe('model messages (1 requests)');
      expect(claimed[0]!.exchanges[0]).toMatch(/model\s+\{"outcome":"completed","message":"Done\."/);
      expect(claimed[0]!.calls).toEqual([]);
      // A trial whose model called open_ticket, then read the tool's result and answered.
      expect(called[0]!.title).toBe('model messages (2 requests)');
      expect(called[0]!.calls).toEqual([
        expect.stringMatching(/^calls open_ticket\s+\{"requestId":"req-1","subject":"Printer on fire"\}/),
      ]);
      expect(called[0]!.results).toEqual([expect.stringMatching(/^tool\s+\[result of call_/)]);
      expect(called[0]!.exchanges[1]).toMatch(/model\s+\{"outcome":"completed","message":"Tickets opened\."/);
    } finally {
      await browser.close();
    }
  });
});
