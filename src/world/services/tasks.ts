import { z } from 'zod';
import { defineService } from '../define/defineService.js';
import { notFound, stateConflict } from './httpErrors.js';

/**
 * A task's states as the manager reports them (R20). `unknown` is the manager's honest answer
 * when it has lost track of a task and cannot confirm how it ended: never success, never failure.
 */
export const TASK_STATES = ['accepted', 'running', 'succeeded', 'failed', 'cancelled', 'unknown'] as const;
export type TaskState = (typeof TASK_STATES)[number];

export const SubmitTaskInput = z
  .object({
    /** Your business id for the task: a status query (R21) finds it by this. */
    clientReference: z.string().min(1),
    command: z.string().min(1),
  })
  .strict();
export const TaskIdInput = z.object({ taskId: z.string().min(1) }).strict();

/** What the manager stores of a task; its state follows from the clock and the options. */
interface Task {
  readonly clientReference: string;
  readonly command: string;
  readonly acceptedAt: number;
  readonly cancelledAt?: number;
}
export type TaskTable = Record<string, Task>;

const TaskManagerOptions = z.object({
  /** Virtual time from acceptance to `running`. */
  startAfterMs: z.number().int().nonnegative().default(1_000),
  /** Virtual time from `running` to the outcome. */
  durationMs: z.number().int().nonnegative().default(10_000),
  /** How a task ends when nothing interferes. */
  outcome: z.enum(['succeeded', 'failed']).default('succeeded'),
  /** Fault: this long after acceptance the manager loses track of the task; from then on it answers `unknown`. */
  loseTrackAfterMs: z.number().int().nonnegative().optional(),
  /** Fault: this long after acceptance the task is killed from outside (an OOM killer, a node lost): it ends `failed`. */
  killAfterMs: z.number().int().nonnegative().optional(),
});
type Options = z.infer<typeof TaskManagerOptions>;

/** What really happened to a task, whatever the manager can still tell. */
function truthOf(task: Task, o: Options, now: number): { state: Exclude<TaskState, 'unknown'>; killed: boolean } {
  const runningAt = task.acceptedAt + o.startAfterMs;
  const doneAt = runningAt + o.durationMs;
  const killedAt = o.killAfterMs === undefined ? Infinity : task.acceptedAt + o.killAfterMs;
  const endedAt = Math.min(doneAt, killedAt, task.cancelledAt ?? Infinity);
  if (now < endedAt) return { state: now < runningAt ? 'accepted' : 'running', killed: false };
  if (task.cancelledAt !== undefined && task.cancelledAt === endedAt) return { state: 'cancelled', killed: false };
  if (killedAt === endedAt && killedAt < doneAt) return { state: 'failed', killed: true };
  return { state: o.outcome, killed: false };
}

const lostTrack = (task: Task, o: Options, now: number): boolean =>
  o.loseTrackAfterMs !== undefined && now >= task.acceptedAt + o.loseTrackAfterMs;

function reported(
  taskId: string,
  task: Task,
  o: Options,
  now: number,
): { taskId: string; clientReference: string; state: TaskState; reason?: string } {
  const base = { taskId, clientReference: task.clientReference };
  if (lostTrack(task, o, now))
    return {
      ...base,
      state: 'unknown',
      reason: 'the task manager lost track of this task; its result cannot be confirmed',
    };
  const truth = truthOf(task, o, now);
  return truth.killed
    ? { ...base, state: 'failed', reason: 'killed from outside (SIGKILL)' }
    : { ...base, state: truth.state };
}

function logsOf(task: Task, o: Options, now: number): string[] {
  const lines = [`accepted: ${task.command}`];
  // The logs stop where the manager lost track: it knows nothing after that.
  const known = lostTrack(task, o, now) ? task.acceptedAt + (o.loseTrackAfterMs ?? 0) : now;
  const truth = truthOf(task, o, Math.min(known, now));
  if (truth.state !== 'accepted') lines.push('started');
  if (truth.state === 'cancelled') lines.push('cancelled on request');
  else if (truth.killed) lines.push('killed by signal SIGKILL (from outside)');
  else if (truth.state === 'succeeded' || truth.state === 'failed') lines.push(`finished: ${truth.state}`);
  if (known < now) lines.push('(no further logs: the manager lost track of the task)');
  return lines;
}

function mustFind(tasks: TaskTable, taskId: string): Task {
  const task = tasks[taskId];
  if (!task) throw notFound('taskId', `no task with id "${taskId}"`);
  return task;
}

/**
 * A task manager (R20): `submit_task` answers at once with an id; `get_task_status`,
 * `get_task_logs` and `cancel_task` follow it. Its faults are options: `loseTrackAfterMs` (the
 * status answers `unknown`), `killAfterMs` (the task is killed from outside); a failing status
 * query is the fault plan's, on `get_task_status`. The snapshot keeps the truth beside what
 * the manager reports, so a goal can compare the agent's claim with what happened.
 */
export const tasks = defineService({
  name: 'tasks',
  description: 'A task manager for long tasks: submit, status, logs, cancel (R20).',
  options: TaskManagerOptions,
  state: (): TaskTable => ({}),
  snapshot: (table, { now, options }) =>
    Object.fromEntries(
      Object.entries(table).map(([id, task]) => [
        id,
        { ...task, state: truthOf(task, options, now).state, reported: reported(id, task, options, now).state },
      ]),
    ),
  tools: {
    submit_task: {
      description:
        'Submit a long task. Answers at once with a taskId; follow it with get_task_status. clientReference is your business id for it.',
      risk: 'write',
      input: SubmitTaskInput,
      businessKey: 'clientReference',
      run(input, ctx) {
        const taskId = ctx.id('task');
        ctx.state[taskId] = { ...input, acceptedAt: ctx.now() };
        ctx.effect('task.submitted', { key: input.clientReference, data: { taskId, command: input.command } });
        return { taskId, state: 'accepted' as const };
      },
      status: (clientReference, ctx) => {
        const found = Object.keys(ctx.state).find((id) => ctx.state[id]?.clientReference === clientReference);
        return found && reported(found, ctx.state[found]!, ctx.options, ctx.now());
      },
    },
    get_task_status: {
      description:
        'Get a task and its state: accepted, running, succeeded, failed, cancelled, or unknown when the manager cannot confirm its result.',
      risk: 'read',
      input: TaskIdInput,
      run: ({ taskId }, ctx) => reported(taskId, mustFind(ctx.state, taskId), ctx.options, ctx.now()),
    },
    get_task_logs: {
      description: "Get a task's log lines so far.",
      risk: 'read',
      input: TaskIdInput,
      run: ({ taskId }, ctx) => ({ taskId, lines: logsOf(mustFind(ctx.state, taskId), ctx.options, ctx.now()) }),
    },
    cancel_task: {
      description:
        'Cancel a task that has not finished. Cancelling is not rollback: what the task did so far stays done.',
      risk: 'idempotent-write',
      input: TaskIdInput,
      businessKey: 'taskId',
      run({ taskId }, ctx) {
        const task = mustFind(ctx.state, taskId);
        const now = reported(taskId, task, ctx.options, ctx.now());
        if (now.state === 'cancelled') return now;
        if (now.state === 'unknown')
          throw stateConflict('task_unknown', `task ${taskId} is unknown to the manager; it cannot confirm a cancel`);
        if (now.state !== 'accepted' && now.state !== 'running')
          throw stateConflict('task_finished', `task ${taskId} already ${now.state} and cannot be cancelled`);
        ctx.state[taskId] = { ...task, cancelledAt: ctx.now() };
        ctx.effect('task.cancelled', { key: taskId, data: { taskId, from: now.state } });
        return reported(taskId, ctx.state[taskId], ctx.options, ctx.now());
      },
    },
  },
});
