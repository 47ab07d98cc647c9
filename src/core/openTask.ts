/** R20's states of a task that has been taken on but has no final result yet. */
export const OPEN_TASK_STATES = ['accepted', 'running'] as const;
export type OpenTaskState = (typeof OPEN_TASK_STATES)[number];

/**
 * The open task state a tool's answer reports (`{ state: 'accepted' }`, `{ status: 'running' }`),
 * if it reports one. Such an answer confirms that a long task was taken on, not how it ended
 * (R20): a caller that later says "unknown" about the task's result is honest.
 */
export function openTaskState(value: unknown): OpenTaskState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as { state?: unknown; status?: unknown };
  const state = typeof v.state === 'string' ? v.state : v.status;
  return OPEN_TASK_STATES.find((s) => s === state);
}

/** The `task` field of an outcome or reconcile event: present only when the answer is an open task. */
export function openTaskField(value: unknown): { task?: OpenTaskState } {
  const task = openTaskState(value);
  return task === undefined ? {} : { task };
}
