import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../cli/faultline.js';
import { inProcess } from '../cli/inProcess.js';
import { skipReason, useTestDatabase } from './postgres.js';

/**
 * Issue 45's durable-framework example, judged as it is: an agent on LangGraph.js with its
 * checkpoints in a real Postgres (`@langchain/langgraph-checkpoint-postgres`), killed after its
 * first order committed and before its tool node returned, resumes its thread as LangGraph's docs
 * say. Both scenarios in one run, through the CLI's entry in this process (the agents are real
 * processes); the database is this file's own container, as for every file here.
 */
const EXAMPLE = fileURLToPath(new URL('../../scenarios/examples/crash/langgraph/', import.meta.url));

type Event = {
  type: string;
  tool?: string;
  call?: string;
  attempt?: number;
  outcome?: string;
  result?: string;
  exitCode?: number | null;
  stderr?: string;
};

/**
 * The trial in one line, for an assertion's message: its requests, effects, kills and restarts, and how each start of
 * the agent ended. Once, at load 8 to 14, the default-durability trial failed goal-state alone (no duplicate) and
 * the report, in a removed temp folder, was lost: the next such failure says what happened.
 */
const story = (history: readonly Event[]): string =>
  history
    .filter((e) =>
      ['http_request', 'effect', 'agent_crash', 'agent_restart', 'command_end', 'agent_end'].includes(e.type),
    )
    .map((e) =>
      [e.type, e.call, e.attempt, e.result, e.exitCode, e.outcome, e.stderr?.slice(-300)]
        .filter((x) => x !== undefined && x !== null && x !== '')
        .join(' '),
    )
    .join('; ');
type Report = { cells: { scenario: string; trials: { failed: string[]; history: Event[] }[] }[] };

describe.skipIf(skipReason !== undefined)('a LangGraph.js agent with a Postgres checkpointer, crashed', () => {
  const database = useTestDatabase(1);

  it('resumes from its last checkpoint and places the first order again (duplicates); with durability sync, by re-running the tool node', async () => {
    const out = await tempDir('langgraph');
    try {
      const r = await inProcess(
        [
          'run',
          join(EXAMPLE, 'langgraph-after-create.yaml'),
          join(EXAMPLE, 'langgraph-sync-after-create.yaml'),
          '--k',
          '1',
          '--out',
          out.path,
          '--reporter',
          'json',
        ],
        { cwd: out.path, env: { DATABASE_URL: database().pg.url } },
      );
      expect(r.code, r.stderr).toBe(1);
      const report = JSON.parse(await readFile(join(out.path, 'faultline.json'), 'utf8')) as Report;
      const trial = (name: string) => report.cells.find((c) => c.scenario === name)!.trials[0]!;
      for (const name of ['crash-langgraph-after-create', 'crash-langgraph-sync-after-create']) {
        const { failed, history } = trial(name);
        // po-1 twice: the restart finished the task (recovery holds, it said completed), one order too many.
        expect([...failed].sort(), `${name}: ${story(history)}`).toEqual([
          'duplicates',
          'goal-state',
          'retry-discipline',
        ]);
        expect(history.find((e) => e.type === 'agent_end')?.outcome, `${name}: ${story(history)}`).toBe('completed');
      }
      // With each step's checkpoint written before the next starts, the restart's first request is the
      // killed tool node's own call again (the model's step was saved): LangGraph re-runs the node.
      const { history } = trial('crash-langgraph-sync-after-create');
      const restarted = history.slice(history.findIndex((e) => e.type === 'agent_restart'));
      expect(restarted.find((e) => e.type === 'http_request')).toMatchObject({
        tool: 'create_order',
        call: 'create_order#1',
        attempt: 2,
      });
    } finally {
      await out.cleanup();
    }
  });
});
