/**
 * Issue 27, item 1: one faultline.config.ts with `defaults` and an `agents` matrix runs the
 * helpdesk's three SDK agents (openai, AI SDK, Agents SDK) over one copy of each scenario,
 * through the real binary in a user's project (the first run; the variations run the CLI's
 * entry in this process, ./inProcess.ts, which spares each a Node start).
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_SCHEMA_VERSION } from '../../src/report/json.js';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';
import { OPEN_TICKET_PLAN } from './ticketScenario.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/', import.meta.url));
const AGENTS = ['openai', 'ai-sdk', 'agents-sdk'];

const CONFIG = `import { defineConfig } from 'faultline';

export default defineConfig({
  scenarios: ['scenarios/*.yaml'],
  k: 2,
  gates: ['pass^2>=1', 'duplicates==0'],
  defaults: {
    services: ['./helpdesk/code/helpdesk.service.ts'],
    // The app documents four attempts: every scenario gets that budget unless it sets its own.
    budget: { maxAttemptsPerCall: 4 },
  },
  agents: [
    { name: 'openai', module: './sdk-agents/code/openaiAgent.ts' },
    { name: 'ai-sdk', module: './sdk-agents/code/aiSdkAgent.ts' },
    { name: 'agents-sdk', module: './sdk-agents/code/agentsSdkAgent.ts' },
  ],
});
`;

const scenario = (name: string, faults: string): string => `name: ${name}
model:
  api: openai
${OPEN_TICKET_PLAN}${faults}agent: { task: Open a ticket about the printer that is on fire. }
goal:
  effects: { ticket.opened: 1 }
  outcome: [completed]
`;

// The open_ticket tool tries three times with one key: two lost answers, then the ticket.
const LOST_TWICE = `faults:
  - match: { tool: open_ticket, attempt: [1, 2] }
    fault: { kind: partial_write, lostAs: timeout }
`;

async function exampleFiles(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const folder of ['sdk-agents/code', 'helpdesk/code']) {
    for (const name of await readdir(join(EXAMPLES, folder)))
      files[`${folder}/${name}`] = await readFile(join(EXAMPLES, folder, name), 'utf8');
  }
  return files;
}

interface Report {
  schemaVersion: number;
  run: { configs: string[]; scenarios: string[] };
  cells: { scenario: string; config: string; refs: { config: string; agent?: string }; status: string }[];
}

let project: Awaited<ReturnType<typeof userProject>>;
const readReport = async (out = 'reports'): Promise<Report> =>
  JSON.parse(await readFile(join(project.path, out, 'faultline.json'), 'utf8')) as Report;

beforeAll(async () => {
  project = await userProject(
    'matrix',
    {
      ...(await exampleFiles()),
      'faultline.config.ts': CONFIG,
      'scenarios/ticket-partial-write.yaml': scenario(
        'ticket-partial-write',
        'faults:\n  - match: { tool: open_ticket, attempt: 1 }\n    fault: { kind: partial_write, lostAs: timeout }\n',
      ),
      'scenarios/ticket-lost-twice.yaml': scenario('ticket-lost-twice', LOST_TWICE),
    },
    ['openai', 'ai', '@ai-sdk/openai', '@openai/agents'],
  );
});
afterAll(() => project.cleanup());

describe('one config, a matrix of agents', () => {
  it('runs every scenario once per agent, each cell labelled by its agent, with the defaults filled in', async () => {
    expect(CONFIG.trimEnd().split('\n').length).toBeLessThan(30);
    const r = await faultline(
      [
        'run',
        '--reporter',
        'json',
        '--reporter',
        'console',
        '--reporter',
        'junit',
        '--reporter',
        'markdown',
        '--workers',
        '2',
      ],
      { cwd: project.path },
    );
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toContain('2 scenarios × 3 agents, 12 trials (0 failed)');
    for (const agent of AGENTS) expect(r.stderr).toContain(`✓ ${agent} × ticket-lost-twice: 2/2 passed`);
    // Nothing is labelled with the retry configuration the SDK agents never used.
    expect(r.stderr).not.toContain('rulebook');
    const report = await readReport();
    expect(report.schemaVersion).toBe(JSON_SCHEMA_VERSION);
    expect(report.run.configs).toEqual(AGENTS);
    expect(report.run.scenarios).toEqual(['ticket-lost-twice', 'ticket-partial-write']);
    expect(report.cells.map((c) => `${c.config}:${c.refs.agent}:${c.status}`).sort()).toEqual(
      AGENTS.flatMap((a) => [`${a}:${a}:passed`, `${a}:${a}:passed`]).sort(),
    );
    const junit = await readFile(join(project.path, 'reports', 'junit.xml'), 'utf8');
    const markdown = await readFile(join(project.path, 'reports', 'summary.md'), 'utf8');
    for (const agent of AGENTS) {
      expect(junit).toContain(agent);
      expect(markdown).toContain(`### ${agent}`);
    }
  });

  it('defaults fill every scenario that leaves a field out; a scenario that sets it keeps its own, whole', async () => {
    const { writeFile } = await import('node:fs/promises');
    // The same project with a budget of 2 attempts per call: the tool's third try breaks it.
    await writeFile(
      join(project.path, 'tight.config.ts'),
      CONFIG.replace('maxAttemptsPerCall: 4', 'maxAttemptsPerCall: 2'),
    );
    await writeFile(
      join(project.path, 'own-budget.yaml'),
      scenario('ticket-own-budget', LOST_TWICE).replace('goal:', 'budget: { maxAttemptsPerCall: 3 }\ngoal:'),
    );
    const args = [
      '--config-file',
      'tight.config.ts',
      '--agent',
      'openai',
      '--reporter',
      'json',
      '--reporter',
      'console',
      '--workers',
      '0',
    ];
    const tight = await inProcess(['run', 'scenarios/ticket-lost-twice.yaml', ...args, '--out', 'tight'], {
      cwd: project.path,
    });
    expect(tight.code, tight.stderr).toBe(1);
    expect(tight.stdout).toContain('ticket-lost-twice × openai: 2 of 2 trials failed (budget)');
    const own = await inProcess(['run', 'own-budget.yaml', ...args, '--out', 'own'], { cwd: project.path });
    expect(own.code, own.stderr + own.stdout).toBe(0);
    expect((await readReport('own')).cells.map((c) => [c.config, c.status])).toEqual([['openai', 'passed']]);
  });

  it('--agent picks agents; compare shows agents side by side; a failing cell replays with its agent', async () => {
    const r = await inProcess(
      [
        'compare',
        'scenarios/ticket-partial-write.yaml',
        '--agent',
        'openai,agents-sdk',
        '--reporter',
        'console',
        '--reporter',
        'json',
        '--out',
        'picked',
        '--workers',
        '0',
      ],
      {
        cwd: project.path,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const header = r.stdout.split('\n').find((l) => l.includes('│ openai'));
    expect(header).toMatch(/│ openai\s+│ agents-sdk/);
    // compare's default configurations could not reach an SDK agent: one column per agent, none per configuration.
    expect(r.stdout).not.toMatch(/naive|cockatiel/);
    expect((await readReport('picked')).cells.map((c) => c.config)).toEqual(['openai', 'agents-sdk']);

    const replay = await inProcess(
      ['replay', 'scenarios/ticket-partial-write.yaml', '--agent', 'ai-sdk', '--trial', '1'],
      { cwd: project.path },
    );
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toContain('ticket-partial-write × ai-sdk');
    const ambiguous = await inProcess(['replay', 'scenarios/ticket-partial-write.yaml'], { cwd: project.path });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('it runs under 3 agents: name one with --agent');
  });

  it('refuses what cannot apply, naming where it came from', async () => {
    const unknown = await inProcess(['run', '--agent', 'langchain'], { cwd: project.path });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      '--agent langchain: no such agent in faultline.config.ts (agents: openai, ai-sdk, agents-sdk)',
    );
    const config = await inProcess(['run', '--config', 'naive'], { cwd: project.path });
    expect(config.code).toBe(2);
    expect(config.stderr).toContain(
      '--config (naive): the agents openai, ai-sdk, agents-sdk make their own calls and retries, so no retry configuration applies to them',
    );
    const k = await inProcess(['run', '--k', '1'], { cwd: project.path });
    expect(k.code).toBe(2);
    expect(k.stderr).toContain(
      'faultline.config.ts: gates[0] "pass^2>=1" can never hold: pass^2 needs at least 2 trials per cell, and this run has --k 1',
    );
    expect(k.stderr).not.toContain('--gate');
  });

  it('list shows the matrix; explore and sweep run each agent, labelled by it, with the defaults filled in', async () => {
    const list = await inProcess(['list', '--json'], { cwd: project.path });
    expect(list.code, list.stderr).toBe(0);
    const rows = JSON.parse(list.stdout) as { name: string; services: string[]; agents?: string[] }[];
    expect(rows.map((r) => [r.name, r.services, r.agents])).toEqual([
      ['ticket-lost-twice', ['helpdesk'], AGENTS],
      ['ticket-partial-write', ['helpdesk'], AGENTS],
    ]);
    const table = await inProcess(['list', '--agent', 'openai'], { cwd: project.path });
    expect(table.stdout).toMatch(/scenario +title +rules +services +agents\n/);
    expect(table.stdout).toMatch(/ticket-lost-twice .* helpdesk +openai\n/);

    const explore = await inProcess(
      [
        'explore',
        'scenarios/ticket-partial-write.yaml',
        '--agent',
        'openai,ai-sdk',
        '--runs',
        '3',
        '--check',
        'duplicates',
        '--out',
        'regressions',
      ],
      { cwd: project.path },
    );
    expect([0, 1], explore.stderr + explore.stdout).toContain(explore.code);
    expect(explore.stdout).toContain('1 scenario × 2 agents × 1 configuration');
    expect(explore.stdout).toMatch(/ticket-partial-write × openai: 3 plans/);
    expect(explore.stdout).toMatch(/ticket-partial-write × ai-sdk: 3 plans/);
    expect(explore.stdout).toContain('in 2 scenario × configuration pairs');

    const sweep = await inProcess(
      [
        'sweep',
        'scenarios/ticket-partial-write.yaml',
        '--agent',
        'agents-sdk',
        '--fault',
        'unavailable',
        '--lambda',
        '0',
        '--k',
        '1',
        '--reporter',
        'json',
        '--out',
        'sweep',
        // A verdict, not the isolation (the first case runs the agents on workers): no worker's host process to start.
        '--workers',
        '0',
      ],
      { cwd: project.path },
    );
    expect(sweep.code, sweep.stderr + sweep.stdout).toBe(0);
    expect(sweep.stderr).toContain('λ=0: pass^1/pass^1 agents-sdk 1.000/1.000 [1/1 trials]');
    const unknown = await inProcess(['sweep', '--agent', 'langchain'], { cwd: project.path });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      '--agent langchain: no such agent in faultline.config.ts (agents: openai, ai-sdk, agents-sdk)',
    );
  });
});
