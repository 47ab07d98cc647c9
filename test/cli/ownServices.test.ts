/**
 * A user's own service, declared once with `defineService` in a project outside the repo and
 * named by path from a YAML scenario: the first run through the real CLI binary, the variations
 * (another configuration, the replay, list, the refusals) in process (`./inProcess.ts`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { SCRIPTED_CREATE_TICKET } from './ticketScenario.js';
import { userProject } from './userProject.js';

const SERVICE = `import { defineService, ServiceError, z } from 'faultline';

interface Ticket { requestId: string; subject: string; status: 'open' | 'closed' }

export default defineService({
  name: 'helpdesk',
  description: 'A helpdesk API',
  state: (): Record<string, Ticket> => ({}),
  tools: {
    create_ticket: {
      description: 'Open a ticket. requestId is your business id for it.',
      risk: 'write',
      input: z.object({ requestId: z.string(), subject: z.string() }).strict(),
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
        const t = ctx.state[ticketId];
        if (!t) throw new ServiceError(404, { code: 'ticket_not_found', message: 'no ticket ' + ticketId, param: 'ticketId' });
        return { ticketId, ...t };
      },
    },
  },
});
`;

const scenario = (
  name: string,
  idempotency: boolean,
  service = '../services/helpdesk.service.ts',
): string => `name: ${name}
services: [${service}]
world:
  helpdesk: { idempotency: ${idempotency} }
faults:
  - match: { tool: create_ticket }
    fault: { kind: partial_write, lostAs: timeout }
    times: 1
${SCRIPTED_CREATE_TICKET}  state: { helpdesk: { tkt-1: { requestId: req-1, status: open } } }
`;

const BAD_SERVICES: readonly { file: string; text: string; expect: RegExp }[] = [
  {
    file: 'throws.service.ts',
    text: `throw new Error('boom at import');\nexport default {};\n`,
    expect: /throws\.service\.ts\): the module failed to load: boom at import/,
  },
  {
    file: 'shape.service.ts',
    text: `export default { name: 'x', tools: [] };\n`,
    expect:
      /shape\.service\.ts\): expected the default export to be a service \(export default defineService\(\{ \.\.\. \}\)\), got an object/,
  },
  {
    file: 'noschema.service.ts',
    text: `import { defineService } from 'faultline';\nexport default defineService({ name: 'x', state: {}, tools: { t: { description: 'd', risk: 'read', run: () => 1 } } } as never);\n`,
    expect:
      /noschema\.service\.ts\): the module failed to load: invalid service "x":\n\s+- tools\.t\.input: expected a zod 4 schema/,
  },
  {
    file: 'state.service.ts',
    text: `import { defineService, z } from 'faultline';\nexport default defineService({ name: 'x', state: { since: new Date(0) }, tools: { t: { description: 'd', risk: 'read', input: z.object({}), run: () => 1 } } });\n`,
    expect:
      /state\.service\.ts\): the module failed to load: invalid service "x":\n\s+- state\.since: a Date: expected JSON data/,
  },
];

let project: Awaited<ReturnType<typeof userProject>>;

beforeAll(async () => {
  project = await userProject('services', {
    'services/helpdesk.service.ts': SERVICE,
    'scenarios/ticket.yaml': scenario('ticket-partial-write', true),
    'scenarios/ticket-off.yaml': scenario('ticket-partial-write-off', false),
    ...Object.fromEntries(BAD_SERVICES.map((b) => [`bad/${b.file}`, b.text])),
    ...Object.fromEntries(
      BAD_SERVICES.map((b) => [
        `bad/${b.file.replace('.service.ts', '.yaml')}`,
        scenario(b.file.split('.')[0]!, true, `./${b.file}`),
      ]),
    ),
  });
});

afterAll(() => project.cleanup());

describe('your own service, declared once and named by path', () => {
  it('runs under the rulebook configuration: the idempotent resend and the reconciliation both hold', async () => {
    const r = await faultline(['run', 'scenarios/', '--k', '4'], { cwd: project.path });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(
      /✓ ticket-partial-write\s+1\.000 \[0\.40, 1\.00\]\s+1\.000 \[0\.02, 1\.00\]\s+1\.000 \[0\.87, 1\.00\]\s+4\/4\s+0/,
    );
    expect(r.stdout).toMatch(
      /✓ ticket-partial-write-off\s+1\.000 \[0\.40, 1\.00\]\s+1\.000 \[0\.02, 1\.00\]\s+1\.000 \[0\.87, 1\.00\]\s+4\/4\s+0/,
    );
    expect(r.stdout).toContain('gates: all 4 held');
  });

  it("fails with duplicates evidence on the user's tool when idempotency is off and the retries mint new keys", async () => {
    // --workers 0: the verdicts are the claim, not isolation (the binary run uses a worker); spares a worker's start.
    const r = await inProcess(['run', 'scenarios/ticket-off.yaml', '--config', 'naive', '--k', '2', '--workers', '0'], {
      cwd: project.path,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ duplicates==0 failed in 1 of 1 cells: ticket-partial-write-off × naive \(2\)/);
    expect(r.stdout).toContain('replay: faultline replay scenarios/ticket-off.yaml --config naive --seed 1 --trial 0');
    const report = JSON.parse(await readFile(join(project.path, 'reports/faultline.json'), 'utf8')) as {
      cells: { trials: { checks: { name: string; verdict: { valid: unknown; message?: string } }[] }[] }[];
    };
    const duplicates = report.cells[0]!.trials[0]!.checks.find((c) => c.name === 'duplicates')!;
    expect(duplicates.verdict.valid).toBe(false);
    expect(duplicates.verdict.message).toContain('helpdesk:req-1 was created 2 times');

    const replay = await inProcess(
      ['replay', 'scenarios/ticket-off.yaml', '--config', 'naive', '--seed', '1', '--trial', '0'],
      { cwd: project.path },
    );
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(/call-1 create_ticket attempt 1/);
    expect(replay.stdout).toMatch(/effect ticket\.created key=req-1 \(#1\)/);
  });

  it("lists the user's tools beside the scenario", async () => {
    const tools = await inProcess(['list', '--tools', 'scenarios/ticket.yaml'], { cwd: project.path });
    expect(tools.code).toBe(0);
    expect(tools.stdout.split('\n')).toEqual([
      expect.stringMatching(/^tool\s+service\s+risk\s+description$/),
      expect.stringMatching(
        /^create_ticket\s+helpdesk\s+write\s+Open a ticket\. requestId is your business id for it\.$/,
      ),
      expect.stringMatching(/^get_ticket\s+helpdesk\s+read\s+Get one ticket by id\.$/),
      '',
    ]);
    const list = await inProcess(['list', 'scenarios/'], { cwd: project.path });
    expect(list.stdout).toMatch(/ticket-partial-write\s+helpdesk/);
  });

  it.each(BAD_SERVICES)(
    'refuses a bad service module ($file) with exit 2, naming the scenario and the module, no stack',
    async (bad) => {
      const file = `bad/${bad.file.replace('.service.ts', '.yaml')}`;
      const r = await inProcess(['run', file, '--k', '1'], { cwd: project.path });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`error: ${file}: services[0] (./${bad.file})`);
      expect(r.stderr).toMatch(bad.expect);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
  );

  it('refuses options the service does not take, naming world.<service>.<field>', async () => {
    await writeFile(
      join(project.path, 'bad-options.yaml'),
      scenario('ticket-opts', true, './services/helpdesk.service.ts').replace(
        'helpdesk: { idempotency: true }',
        'helpdesk: { idempotency: true, retries: 3 }',
      ),
    );
    const r = await inProcess(['run', 'bad-options.yaml'], { cwd: project.path });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'world.helpdesk.retries: unknown option (known: idempotency, retentionMs, processingMs, capacity)',
    );
  });
});
