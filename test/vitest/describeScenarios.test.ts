// The built-in library as vitest tests through faultline/vitest, as a user's test file would run it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeScenarios } from '../../src/public/vitest.js';

await describeScenarios(['read-timeout-retry', 'order-partial-write-idempotent', 'scenarios/email-rate-limit-*.yaml'], {
  retryConfigs: ['rulebook', 'full-jitter-budget'],
  k: 3,
});

it('refuses an empty list rather than collecting no test', async () => {
  await expect(describeScenarios([])).rejects.toThrow('describeScenarios: name at least one scenario');
  await expect(describeScenarios(['nowhere/*.yaml'])).rejects.toThrow(
    'the pattern "nowhere/*.yaml" matches no scenario file',
  );
});

it('refuses retry configurations that no agent of the matrix would use, as faultline run --config does, rather than run each scenario once under the first', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'faultline-describe-'));
  const cwd = process.cwd();
  try {
    await writeFile(
      join(dir, 'faultline.config.mjs'),
      "export default { defaults: { services: ['orders'] }, agents: [{ name: 'fetcher', module: './fetcher.agent.mjs' }] };\n",
    );
    await writeFile(join(dir, 'fetcher.agent.mjs'), "export default async () => ({ outcome: 'completed' });\n");
    await writeFile(
      join(dir, 'orders.yaml'),
      'name: own-calls\nagent: { task: Create order ref-1 }\ngoal:\n  effects: { order.created: 1 }\n',
    );
    process.chdir(dir);
    await expect(describeScenarios(['orders.yaml'], { retryConfigs: ['rulebook', 'naive'] })).rejects.toThrow(
      'describeScenarios: retryConfigs (rulebook, naive): the agent fetcher makes its own calls and retries, so no retry configuration applies to it',
    );
  } finally {
    process.chdir(cwd);
    await rm(dir, { recursive: true, force: true });
  }
});
