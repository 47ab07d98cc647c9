/**
 * `faultline explore` through the real binary, in projects outside the repo: it finds a failing
 * fault plan, shrinks it to one rule, writes a regression scenario that `faultline run` fails
 * and whose replay reproduces the trial; it finds nothing where there is nothing to find; and
 * it works on a user's own service, function agent and HTTP agent.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, type Finished } from './faultline.js';
import { helpdeskService } from './helpdeskService.js';
import { headerCommand, writtenFile } from './exploreOutput.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';
import { SCRIPTED_CREATE_TICKET } from './ticketScenario.js';

const EXAMPLE = fileURLToPath(new URL('../../scenarios/examples/helpdesk/', import.meta.url));

/** The helpdesk whose write tool is create_ticket, with no HTTP shape. */
const SERVICE = helpdeskService({ tool: 'create_ticket', effect: 'ticket.created' });

/** The service ignores Idempotency-Key, and the scenario has no faults of its own: explore brings them. */
const TICKET_OFF = `name: ticket-off
services: [../services/helpdesk.service.ts]
world:
  helpdesk: { idempotency: false }
${SCRIPTED_CREATE_TICKET}`;

const FUNCTION_AGENT = `import { defineScenario } from 'faultline';

export default defineScenario({
  name: 'my-agent-orders',
  world: { orders: { idempotency: false } },
  services: ['orders'],
  agent: {
    kind: 'function',
    task: 'Create order ref-1',
    fn: async ({ tools }) => {
      const r = await tools.create_order!({ clientReference: 'ref-1', item: 'pen', quantity: 1, amountCents: 100 });
      if (r.kind === 'ok') return { outcome: 'completed', claims: [{ subject: 'orders:ref-1', status: 'succeeded' }] };
      if (r.kind === 'unknown') return { outcome: 'unknown', claims: [{ subject: 'orders:ref-1', status: 'unknown' }] };
      return { outcome: 'failed', claims: [{ subject: 'orders:ref-1', status: 'failed' }] };
    },
  },
  goal: { effects: { 'order.created': 1 } },
});
`;

/** An agent that calls no tool: no generated fault can ever reach it. */
const IDLE_AGENT = `import { defineScenario } from 'faultline';

export default defineScenario({
  name: 'idle-agent',
  services: ['orders'],
  agent: { kind: 'function', task: 'Say hello', fn: async () => ({ outcome: 'completed' }) },
  goal: { outcome: ['completed'] },
});
`;

/** The built-in library, every scenario of it. */
const LIBRARY = [
  'calendar-end-before-start',
  'concurrent-duplicate-409',
  'deploy-outcome-unknown',
  'deploy-poll-to-completion',
  'duplicate-delivery-dedup',
  'email-outage-heal',
  'email-rate-limit-http-date',
  'email-rate-limit-seconds',
  'email-truncated-list-reminders',
  'nested-retries-amplification',
  'order-empty-search-duplicate',
  'order-partial-write-idempotent',
  'order-partial-write-no-idempotency',
  'order-stale-status-resubmit',
  'payment-quota-exceeded',
  'permission-denied-refund',
  'read-timeout-retry',
  'replayed-500-same-key',
  'retry-after-beyond-deadline',
];

let project: Awaited<ReturnType<typeof userProject>>;

beforeAll(async () => {
  project = await userProject('explore', {
    'services/helpdesk.service.ts': SERVICE,
    'scenarios/ticket-off.yaml': TICKET_OFF,
    'scenarios/my-agent.scenario.ts': FUNCTION_AGENT,
    'scenarios/idle.scenario.ts': IDLE_AGENT,
  });
});

afterAll(() => project.cleanup());

// The first search goes through the real binary (the path end to end); the variations run the
// CLI's entry in this process (./inProcess.ts), which spares each a Node start.
const binary = (args: readonly string[]): Promise<Finished> => faultline(args, { cwd: project.path });
const run = (args: readonly string[]): Promise<Finished> => inProcess(args, { cwd: project.path });

/**
 * `explore scenarios/ticket-off.yaml --runs 100 --seed 1`, run once: the tests that read its
 * output and its regression file different ways share it (each starts it if it runs alone).
 */
let ticketOffRun: Promise<Finished> | undefined;
const exploreTicketOff = (): Promise<Finished> =>
  (ticketOffRun ??= binary(['explore', 'scenarios/ticket-off.yaml', '--runs', '100', '--seed', '1']));

describe('faultline explore', () => {
  it("finds a plan that breaks a user's service without idempotency, shrinks it to one rule, and the regression fails under faultline run", async () => {
    const r = await exploreTicketOff();
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(r.stdout).toMatch(
      /✗ ticket-off × rulebook: duplicates\/R21 at plan \d+; shrunk in \d+ steps to 1 fault rule/,
    );
    expect(r.stdout).toMatch(/duplicates: helpdesk:req-1 was created 2 times/);
    const file = writtenFile(r);
    expect(file).toMatch(/^scenarios\/regressions\/ticket-off-regression-[0-9a-f]{8}\.yaml$/);
    expect(r.stdout).toContain(`replay: faultline replay ${file} --config rulebook --seed 1 --trial 0`);

    const text = await readFile(join(project.path, file), 'utf8');
    const scenario = parse(text) as {
      name: string;
      services: string[];
      faults: { fault: { kind: string } }[];
      checks: string[];
    };
    expect(scenario.name).toBe(file.slice('scenarios/regressions/'.length, -'.yaml'.length));
    expect(scenario.services).toEqual(['../../services/helpdesk.service.ts']);
    expect(scenario.faults).toHaveLength(1);
    expect(scenario.faults[0]!.fault.kind).toBe('duplicate');
    expect(scenario.checks).not.toContain('goal-state');
    expect(text).toMatch(
      /^# fast-check seed 1, replay path "[\d:]+": found at plan \d+ of 100 tried, \d+ shrink steps?\.$/m,
    );

    const reproduce = headerCommand(text, 'reproduce');
    expect(reproduce).toEqual(['run', file, '--config', 'rulebook', '--seed', '1']);
    const again = await run(reproduce);
    expect(again.code, again.stderr).toBe(1);
    expect(again.stdout).toMatch(/✗ duplicates==0 failed in 1 of 1 cells/);

    // The replay is the very trial explore judged: its seed, and the history the run's report kept.
    const trialSeed = /trial 0 \(seed (\d+), end /.exec(r.stdout)![1];
    const replay = await run([...headerCommand(text, 'replay'), '--json']);
    expect(replay.code).toBe(1);
    const history = JSON.parse(replay.stdout) as { type: string; seed?: number }[];
    expect(String(history[0]!.seed)).toBe(trialSeed);
    const report = JSON.parse(await readFile(join(project.path, 'reports/faultline.json'), 'utf8')) as {
      cells: { trials: { index: number; history: unknown[] }[] }[];
    };
    expect(history).toEqual(report.cells[0]!.trials.find((t) => t.index === 0)!.history);
  });

  it('writes the same file, byte for byte, for the same seed, and another for another seed', async () => {
    // 40 plans, not the default 100: seed 7 fails at plan 34 and seed 8 at plan 16; the bytes are the claim, not the count.
    const explore = (seed: string) =>
      run(['explore', 'scenarios/ticket-off.yaml', '--runs', '40', '--seed', seed, '--out', 'again']);
    const first = await explore('7');
    const file = writtenFile(first);
    const bytes = await readFile(join(project.path, file));
    await rm(join(project.path, file));
    const second = await explore('7');
    expect(writtenFile(second)).toBe(file);
    expect((await readFile(join(project.path, file))).equals(bytes)).toBe(true);
    expect(second.stdout).toBe(first.stdout);

    const other = await explore('8');
    expect(writtenFile(other)).not.toBe(file);
  });

  it("shrinks a built-in scenario's plan, run instead of its own faults, to one duplicate delivery", async () => {
    const r = await run(['explore', 'order-partial-write-no-idempotency', '--replace-faults', '--out', 'builtin']);
    expect(r.code, r.stderr).toBe(1);
    const text = await readFile(join(project.path, writtenFile(r)), 'utf8');
    expect((parse(text) as { faults: unknown }).faults).toEqual([
      { match: {}, fault: { kind: 'duplicate', copies: 2 } },
    ]);
    expect(text).toMatch(
      /^# {3}explore: +faultline explore order-partial-write-no-idempotency --config rulebook --seed 1 --runs 100 --replace-faults --path [\d:]+$/m,
    );
    expect((await run(headerCommand(text, 'reproduce'))).code).toBe(1);
  });

  it('finds nothing in 200 plans on each built-in scenario with idempotency honoured, and says which searches tested nothing (exit 1)', async () => {
    // No scenario named: the built-in library, as a user's first `faultline explore` runs it.
    const r = await run(['explore', '--runs', '200']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // Their own rule, first in the plan and matching every attempt of the one tool they call, takes each: no generated rule after it ever fires.
    // email-outage-heal's own rule takes every attempt until its heal, and the heal ends the generated rules with it.
    const silent = [
      'concurrent-duplicate-409',
      'duplicate-delivery-dedup',
      'email-outage-heal',
      'nested-retries-amplification',
      'retry-after-beyond-deadline',
    ];
    for (const name of LIBRARY) {
      expect(r.stdout).toContain(
        silent.includes(name)
          ? `✗ ${name} × rulebook: 200 plans, none failed, but none exercised its faults`
          : `✓ ${name} × rulebook: 200 plans, none failed; `,
      );
    }
    expect(r.stdout).toMatch(
      new RegExp(
        `^explore: no failing plan in ${LIBRARY.length} scenario × configuration pairs; ${silent.length} not exercised \\(no generated rule fired in any plan\\); \\d+ of ${200 * LIBRARY.length} plans exercised their faults`,
        'm',
      ),
    );
  });

  it('finds nothing where it once found the runtime sending a call inside the Retry-After a previous call received (seed 2)', async () => {
    const r = await run(['explore', 'calendar-end-before-start', '--runs', '200', '--seed', '2']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('stops a search after --time seconds and counts the plans tried so far', async () => {
    const r = await run(['explore', 'read-timeout-retry', '--runs', '1000000', '--time', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /✓ read-timeout-retry × rulebook: (\d+) plans, none failed \(stopped by --time after \1\)/,
    );
  });

  it("works on a user's function agent in a TypeScript scenario: the regression is a module that imports it", async () => {
    const r = await run(['explore', 'scenarios/my-agent.scenario.ts', '--out', 'ts']);
    expect(r.code, r.stderr + r.stdout).toBe(1);
    const file = writtenFile(r);
    expect(file).toMatch(/^ts\/my-agent-orders-regression-[0-9a-f]{8}\.ts$/);
    const text = await readFile(join(project.path, file), 'utf8');
    expect(text).toContain("import scenario from '../scenarios/my-agent.scenario.js';");
    const again = await run(headerCommand(text, 'reproduce'));
    expect(again.code, again.stderr).toBe(1);
    expect(again.stdout).toMatch(/✗ duplicates==0 failed/);
  });

  it("works on a user's own HTTP agent: the worked helpdesk example reports a committed ticket as failed after a 401", async () => {
    // 10 plans, not 50: the honesty failure is found at plan 1, and the 40 plans more found two other classes, not checked here.
    const r = await run(['explore', join(EXAMPLE, 'ticket-over-http.yaml'), '--runs', '10', '--out', 'http']);
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(r.stdout).toMatch(/shrunk in \d+ steps to 1 fault rule/);
    expect(r.stdout).toMatch(/honesty: the agent claims helpdesk:req-42 failed but the ledger holds ticket\.opened/);
    const text = await readFile(join(project.path, writtenFile(r)), 'utf8');
    const scenario = parse(text) as { faults: unknown[]; agent: { module: string } };
    // The example's own partial write, then the rule explore found.
    expect(scenario.faults).toHaveLength(2);
    expect(text).toContain(
      "# fails (honesty; explored for honesty/R20) with the fault plan below. faults[0] is the scenario's own; faults[1..] were found by",
    );
    const again = await run(headerCommand(text, 'reproduce'));
    expect(again.code, again.stderr).toBe(1);
  });

  it('counts coverage: which rules of the shrunk plan fired, and how many plans tried exercised their faults', async () => {
    const r = await exploreTicketOff();
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(r.stdout).toMatch(/^ {4}fired in the failing trial: faults\[0\] \(.*duplicate.*\) [1-9]\d*×$/m);
    const tried =
      /^ {4}plans tried: (\d+) of (\d+) plans? exercised their faults \((\d+) fired every rule(?:; (\d+) fired none: no evidence)?\)$/m.exec(
        r.stdout,
      );
    expect(tried, r.stdout).not.toBeNull();
    const [exercised, plans, every, none] = tried!.slice(1).map((n) => Number(n ?? 0));
    // The search spends its whole budget: every plan of it is counted.
    expect(r.stdout).toMatch(/^✗ ticket-off × rulebook: 100 plans, 1 failure class: duplicates\/R21$/m);
    expect(plans).toBe(100);
    expect(exercised! + none!).toBe(plans);
    expect(every).toBeLessThanOrEqual(exercised!);
    const text = await readFile(join(project.path, writtenFile(r)), 'utf8');
    expect(text).toMatch(/^# faults\[0\] fired [1-9]\d*×\.$/m);
    expect(r.stdout).toMatch(
      /^explore: 1 of 1 scenario × configuration pair failed; \d+ of 100 plans exercised their faults/m,
    );
  });

  it('says a search in which no generated rule ever fired tested nothing, and exits 1', async () => {
    const r = await run(['explore', 'scenarios/idle.scenario.ts', '--runs', '20']);
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(r.stdout).toContain(
      '✗ idle-agent × rulebook: 20 plans, none failed, but none exercised its faults: not one generated rule fired, so the search tested nothing',
    );
    expect(r.stdout).toMatch(
      /^explore: no failing plan in 1 scenario × configuration pair; 1 not exercised \(no generated rule fired in any plan\); 0 of 20 plans exercised their faults \(0 fired every rule; 20 fired none: no evidence\)$/m,
    );
  });

  it('refuses bad input with exit code 2, before any trial', async () => {
    const check = await run(['explore', 'scenarios/ticket-off.yaml', '--check', 'nope']);
    expect(check.code).toBe(2);
    expect(check.stderr).toMatch(/--check: unknown checker "nope" \(one of: goal-state, duplicates,/);
    const path = await run(['explore', 'scenarios/ticket-off.yaml', 'order-partial-write-idempotent', '--path', '1:0']);
    expect(path.code).toBe(2);
    expect(path.stderr).toContain('--path replays one search, but there are 2 scenario × configuration pairs');
    const runs = await run(['explore', 'scenarios/ticket-off.yaml', '--runs', '0']);
    expect(runs.code).toBe(2);
    expect(runs.stderr).toMatch(/--runs <n>.*expected a number of plans, at least 1, got "0"/);
    const missing = await run(['explore', 'nope.yaml']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no scenario file or built-in scenario named "nope.yaml"');
    for (const r of [check, path, runs, missing]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('explains itself in --help, with examples', async () => {
    const r = await run(['explore', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: faultline explore [options] [scenarios...]');
    expect(r.stdout).toContain('$ faultline explore order-partial-write-no-idempotency --replace-faults');
    expect(r.stdout).toMatch(/--runs <n>\s+fault plans to try per scenario × configuration\s+\(default: 100\)/);
  });
});
