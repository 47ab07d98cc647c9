import { z } from 'zod';
import { defineService } from '../define/defineService.js';
import { notFound, stateConflict } from './httpErrors.js';
import type { ServiceOptions } from './ServiceOptions.js';

export const StartDeployInput = z
  .object({
    clientReference: z.string().min(1),
    service: z.string().min(1),
    version: z.string().min(1),
  })
  .strict();
export type StartDeployInput = z.infer<typeof StartDeployInput>;

export const DeployIdInput = z.object({ deployId: z.string().min(1) }).strict();
export type DeployIdInput = z.infer<typeof DeployIdInput>;

/** A job's states (R20). `unknown` is the caller's to say, never the service's. */
export const DEPLOY_STATES = ['accepted', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type DeployState = (typeof DEPLOY_STATES)[number];

/** How every deploy of the service ends; `stuck` stays `running` forever. */
export const DEPLOY_OUTCOMES = ['succeeded', 'failed', 'stuck'] as const;
export type DeployOutcome = (typeof DEPLOY_OUTCOMES)[number];

export interface DeployOptions extends ServiceOptions {
  /** Virtual time from acceptance to `running` (default 1000). */
  readonly startAfterMs?: number | undefined;
  /** Virtual time from `running` to the outcome (default 30000). */
  readonly durationMs?: number | undefined;
  /** Default `succeeded`. */
  readonly outcome?: DeployOutcome | undefined;
}

/** A deploy as the snapshot keeps it, keyed by its id, its state as of the snapshot. */
export interface DeployRecord {
  readonly clientReference: string;
  readonly service: string;
  readonly version: string;
  readonly acceptedAt: number;
  readonly cancelledAt?: number;
  readonly state: DeployState;
}

export type DeployView = { readonly deployId: string } & DeployRecord;

/** What the service stores of a job; its state follows from the clock. */
type Job = Omit<DeployRecord, 'state'>;

/** The deploy service's state: every job, keyed by its id. */
export type DeployJobs = Record<string, Job>;

interface Timing {
  readonly startAfterMs: number;
  readonly durationMs: number;
  readonly outcome: DeployOutcome;
}

function stateOf(job: Job, timing: Timing, now: number): DeployState {
  if (job.cancelledAt !== undefined) return 'cancelled';
  const runningAt = job.acceptedAt + timing.startAfterMs;
  if (now < runningAt) return 'accepted';
  if (timing.outcome === 'stuck' || now < runningAt + timing.durationMs) return 'running';
  return timing.outcome;
}

function deployIn(jobs: DeployJobs, deployId: string, timing: Timing, now: number): DeployView | undefined {
  const job = jobs[deployId];
  return job && { deployId, ...job, state: stateOf(job, timing, now) };
}

function mustFind(jobs: DeployJobs, deployId: string, timing: Timing, now: number): DeployView {
  const deploy = deployIn(jobs, deployId, timing, now);
  if (!deploy) throw notFound('deployId', `no deploy with id "${deployId}"`);
  return deploy;
}

/**
 * Long-running deploy jobs (R20). `start_deploy` answers at once with an id; the job's
 * state follows from the virtual clock when someone looks, so no timer is ever set.
 */
export const deploy = defineService({
  name: 'deploy',
  description: 'Long-running deploy jobs: start, poll, cancel (R20).',
  options: z.object({
    /** Virtual time from acceptance to `running`. */
    startAfterMs: z.number().int().nonnegative().default(1_000),
    /** Virtual time from `running` to the outcome. */
    durationMs: z.number().int().nonnegative().default(30_000),
    /** How every deploy ends; `stuck` stays `running` forever. */
    outcome: z.enum(DEPLOY_OUTCOMES).default('succeeded'),
  }),
  state: (): DeployJobs => ({}),
  snapshot: (jobs, { now, options }) =>
    Object.fromEntries(Object.entries(jobs).map(([id, job]) => [id, { ...job, state: stateOf(job, options, now) }])),
  tools: {
    start_deploy: {
      description:
        'Start deploying a version of a service. Answers at once with a deployId; poll get_deploy_status ' +
        'for its progress. clientReference is your business id for it.',
      risk: 'write',
      input: StartDeployInput,
      businessKey: 'clientReference',
      run(input, ctx) {
        const deployId = ctx.id('dep');
        const job: Job = { ...input, acceptedAt: ctx.now() };
        ctx.state[deployId] = job;
        ctx.effect('deploy.started', { key: input.clientReference, data: { deployId, ...job } });
        return { deployId, state: 'accepted' as const };
      },
      status: (clientReference, ctx) => {
        const found = Object.keys(ctx.state).find((id) => ctx.state[id]?.clientReference === clientReference);
        return found && deployIn(ctx.state, found, ctx.options, ctx.now());
      },
    },
    get_deploy_status: {
      description: 'Get a deploy and its state: accepted, running, succeeded, failed or cancelled.',
      risk: 'read',
      input: DeployIdInput,
      run: ({ deployId }, ctx) => mustFind(ctx.state, deployId, ctx.options, ctx.now()),
    },
    cancel_deploy: {
      description: 'Cancel a deploy that has not finished. Cancelling a cancelled deploy changes nothing.',
      risk: 'idempotent-write',
      input: DeployIdInput,
      businessKey: 'deployId',
      run(input, ctx) {
        const found = mustFind(ctx.state, input.deployId, ctx.options, ctx.now());
        if (found.state === 'cancelled') return found;
        if (found.state === 'succeeded' || found.state === 'failed') {
          throw stateConflict(
            'deploy_finished',
            `deploy ${input.deployId} already ${found.state} and cannot be cancelled`,
          );
        }
        const { deployId, state: _state, ...job } = found;
        const cancelled: Job = { ...job, cancelledAt: ctx.now() };
        ctx.state[deployId] = cancelled;
        ctx.effect('deploy.cancelled', { key: deployId, data: { deployId, from: found.state } });
        return { deployId, ...cancelled, state: stateOf(cancelled, ctx.options, ctx.now()) };
      },
      status: (deployId, ctx) => {
        const found = deployIn(ctx.state, deployId, ctx.options, ctx.now());
        return found?.state === 'cancelled' ? found : undefined;
      },
    },
  },
});
