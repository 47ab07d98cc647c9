import { z } from 'zod';
import { IdSource, type Clock } from '../../core/index.js';
import type { Service } from '../Service.js';
import type { ToolSpec } from '../tool.js';
import { notFound, stateConflict } from './httpErrors.js';
import { Operations } from './Operations.js';
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

type Job = Omit<DeployRecord, 'state'>;

/**
 * Long-running deploy jobs (R20). `start_deploy` answers at once with an id; the job's
 * state follows from the virtual clock when someone looks, so no timer is ever set.
 */
export class DeployService implements Service {
  readonly name = 'deploy';
  readonly tools: readonly ToolSpec[];
  readonly startAfterMs: number;
  readonly durationMs: number;
  readonly outcome: DeployOutcome;
  readonly #jobs = new Map<string, Job>();
  readonly #ids = new IdSource();
  readonly #ops: Operations;

  constructor(
    private readonly clock: Clock,
    options: DeployOptions = {},
  ) {
    this.#ops = new Operations(this.name, clock, options);
    this.startAfterMs = options.startAfterMs ?? 1_000;
    this.durationMs = options.durationMs ?? 30_000;
    this.outcome = options.outcome ?? 'succeeded';
    this.tools = [this.#start(), this.#status(), this.#cancel()];
  }

  deploy(deployId: string): DeployView | undefined {
    const job = this.#jobs.get(deployId);
    return job && { deployId, ...this.#record(job) };
  }

  /** Every deploy, oldest first. */
  get deploys(): DeployView[] {
    return [...this.#jobs].map(([deployId, job]) => ({ deployId, ...this.#record(job) }));
  }

  snapshot(): Record<string, DeployRecord> {
    return Object.fromEntries([...this.#jobs].map(([id, job]) => [id, this.#record(job)]));
  }

  #record(job: Job): DeployRecord {
    return { ...job, state: this.#stateOf(job) };
  }

  #stateOf(job: Job): DeployState {
    if (job.cancelledAt !== undefined) return 'cancelled';
    const runningAt = job.acceptedAt + this.startAfterMs;
    const now = this.clock.now();
    if (now < runningAt) return 'accepted';
    if (this.outcome === 'stuck' || now < runningAt + this.durationMs) return 'running';
    return this.outcome;
  }

  #start(): ToolSpec<StartDeployInput, { deployId: string; state: 'accepted' }> {
    return {
      name: 'start_deploy',
      description:
        'Start deploying a version of a service. Answers at once with a deployId; poll get_deploy_status for its progress. clientReference is your business id for it.',
      risk: 'write',
      input: StartDeployInput,
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      canQueryStatus: true,
      businessKeyField: 'clientReference',
      run: (input, ctx) =>
        this.#ops.write('start_deploy', input, input.clientReference, ctx, {
          commit: () => {
            const deployId = this.#ids.next('dep');
            const job: Job = { ...input, acceptedAt: this.clock.now() };
            this.#jobs.set(deployId, job);
            this.#ops.commit(ctx, 'deploy.started', input.clientReference, { deployId, ...job });
            return { deployId, state: 'accepted' as const };
          },
        }),
      status: (ref) =>
        this.#ops.status(ref, 'clientReference', (key) => this.deploys.find((d) => d.clientReference === key)),
    };
  }

  #status(): ToolSpec<DeployIdInput, DeployView> {
    return {
      name: 'get_deploy_status',
      description: 'Get a deploy and its state: accepted, running, succeeded, failed or cancelled.',
      risk: 'read',
      input: DeployIdInput,
      honoursIdempotencyKeys: false,
      canQueryStatus: false,
      run: ({ deployId }) => this.#mustFind(deployId),
    };
  }

  #cancel(): ToolSpec<DeployIdInput, DeployView> {
    return {
      name: 'cancel_deploy',
      description: 'Cancel a deploy that has not finished. Cancelling a cancelled deploy changes nothing.',
      risk: 'idempotent-write',
      input: DeployIdInput,
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      canQueryStatus: true,
      businessKeyField: 'deployId',
      run: (input, ctx) =>
        this.#ops.write('cancel_deploy', input, input.deployId, ctx, {
          commit: () => {
            const deploy = this.#mustFind(input.deployId);
            if (deploy.state === 'cancelled') return deploy;
            if (deploy.state === 'succeeded' || deploy.state === 'failed') {
              throw stateConflict('deploy_finished', `deploy ${input.deployId} already ${deploy.state} and cannot be cancelled`);
            }
            const { deployId, state: _state, ...job } = deploy;
            const cancelled: Job = { ...job, cancelledAt: this.clock.now() };
            this.#jobs.set(deployId, cancelled);
            this.#ops.commit(ctx, 'deploy.cancelled', deployId, { deployId, from: deploy.state });
            return { deployId, ...this.#record(cancelled) };
          },
        }),
      status: (ref) =>
        this.#ops.status(ref, 'deployId', (deployId) => {
          const deploy = this.deploy(deployId);
          return deploy?.state === 'cancelled' ? deploy : undefined;
        }),
    };
  }

  #mustFind(deployId: string): DeployView {
    const deploy = this.deploy(deployId);
    if (!deploy) throw notFound('deployId', `no deploy with id "${deployId}"`);
    return deploy;
  }
}
