import { z } from 'zod';
import { DistributionSchema, sample, type Clock, type Distribution, type NetworkLeg, type Rng } from '../core/index.js';
import { HTTP_METHODS } from './http/HttpRoute.js';

type Leg = NetworkLeg;

/**
 * The latency of one level (the default, a service, a tool, a route): one distribution for both
 * legs, or each leg its own. A leg left out falls through to the next less specific level.
 */
export const LegLatencySchema = z
  .union([
    DistributionSchema,
    z
      .object({
        request: DistributionSchema.optional().describe('The request leg: from the caller to the service.'),
        response: DistributionSchema.optional().describe("The response leg: the service's answer back to the caller."),
        // A `kind` here means a distribution that failed its own checks: this branch must fail as plainly, so the
        // message names what was wrong with the distribution (ms: not a finite number), not "Unrecognized keys: kind, ms".
        kind: z.never({ error: 'a distribution has a kind; legs have request and response, not both' }).optional(),
      })
      .strict(),
  ])
  .describe('One distribution for both legs, or { request, response }, each a distribution.')
  .meta({ id: 'LegLatency' });
export type LegLatency = z.infer<typeof LegLatencySchema>;

const LevelSchema = z.object({ latency: LegLatencySchema }).strict();

/** `POST /tickets/:ticketId`: a route as its service declares it (method, one space, path). */
const ROUTE_KEY = new RegExp(`^(${HTTP_METHODS.join('|')}) /\\S*$`);

const ServiceNetworkSchema = z
  .object({
    latency: LegLatencySchema.optional(),
    /** HTTP-served services only: per route, as `METHOD /path` the service declares (`POST /tools/create_order` for one without routes). */
    routes: z
      .record(z.string(), LevelSchema)
      .superRefine((routes, ctx) => {
        for (const key of Object.keys(routes)) {
          if (!ROUTE_KEY.test(key))
            ctx.addIssue({
              code: 'custom',
              path: [key],
              message: `expected a route as "METHOD /path" (${HTTP_METHODS.join(', ')}), as the service declares it`,
            });
        }
      })
      .optional()
      .describe('Per HTTP route ("POST /tickets"), for services served over HTTP to an http agent.'),
  })
  .strict();

/**
 * Network latency between the callers and the services, per leg, drawn from the trial's seeded
 * rng: a default for every service (`latency`), per service, per tool, and per HTTP route; the
 * most specific level that sets a leg wins. Without it every leg is instantaneous.
 */
export const NetworkSchema = z
  .object({
    latency: LegLatencySchema.optional().describe(
      "Every service's legs, unless a service, tool or route says otherwise.",
    ),
    services: z.record(z.string(), ServiceNetworkSchema).optional().describe('Per service, by name.'),
    tools: z.record(z.string(), LevelSchema).optional().describe('Per tool, by name (its status queries too).'),
  })
  .strict();
export type Network = z.infer<typeof NetworkSchema>;

/**
 * What one request travels through: its service (the world's name, when it has one), its tool, and its HTTP route
 * when served over HTTP.
 */
export interface LatencyTarget {
  readonly service?: string;
  readonly tool: string;
  /** `POST /tickets`, as the route is declared. */
  readonly route?: string;
}

/** The two legs one exchange drew, in whole virtual ms. */
export interface LegDraws {
  readonly request: number;
  readonly response: number;
}

type Resolved = { readonly [L in Leg]?: Distribution | undefined };

/**
 * A scenario's `network`, ready to draw from. Draws are whole milliseconds (rounded), so
 * history times, fault windows and Retry-After arithmetic stay exact integers; they come from
 * the rng it is given, which should be a fork of its own (`rng.fork('network')`) so that
 * adding latency shifts no fault or jitter draw.
 */
export class NetworkLatency {
  readonly #config: Network;
  readonly #rng: Rng;
  readonly #resolved = new Map<string, Resolved>();
  readonly #byTarget = new WeakMap<LatencyTarget, Resolved>();

  constructor(config: Network, rng: Rng) {
    this.#config = config;
    this.#rng = rng;
  }

  /** Both legs of one exchange, or `undefined` when no level sets either (the exchange is instantaneous, as without a network). */
  draw(target: LatencyTarget): LegDraws | undefined {
    const legs = this.#legsOf(target);
    if (!legs.request && !legs.response) return undefined;
    return { request: this.#sample(legs.request), response: this.#sample(legs.response) };
  }

  /** One draw of `leg` for `target` (0 when no level sets it). */
  drawLeg(target: LatencyTarget, leg: Leg): number {
    return this.#sample(this.#legsOf(target)[leg]);
  }

  /**
   * Sleeps one draw of `leg` on `clock`: an extra round trip inside one call (`ctx.travel`). A leg
   * of 0 ms is no sleep at all, since a timer would cost a turn of the clock for nothing.
   */
  travel(clock: Clock, target: LatencyTarget, leg: Leg): Promise<void> {
    const ms = this.drawLeg(target, leg);
    return ms > 0 ? clock.sleep(ms) : Promise.resolve();
  }

  #sample(dist: Distribution | undefined): number {
    return dist ? Math.round(sample(dist, this.#rng)) : 0;
  }

  #legsOf(target: LatencyTarget): Resolved {
    // A caller that keeps its target objects (the wire does, one per tool) skips building the key.
    const known = this.#byTarget.get(target);
    if (known) return known;
    const resolved = this.#legsByKey(target);
    this.#byTarget.set(target, resolved);
    return resolved;
  }

  #legsByKey(target: LatencyTarget): Resolved {
    const key = `${target.service ?? ''}\u0000${target.tool}\u0000${target.route ?? ''}`;
    let legs = this.#resolved.get(key);
    if (!legs) this.#resolved.set(key, (legs = this.#resolve(target)));
    return legs;
  }

  #resolve({ service, tool, route }: LatencyTarget): Resolved {
    const c = this.#config;
    const own = service === undefined ? undefined : c.services?.[service];
    const levels = [
      route === undefined ? undefined : own?.routes?.[route]?.latency,
      c.tools?.[tool]?.latency,
      own?.latency,
      c.latency,
    ].map(splitLegs);
    const pick = (leg: Leg): Distribution | undefined => levels.find((l) => l[leg] !== undefined)?.[leg];
    const request = pick('request');
    const response = pick('response');
    return { ...(request && { request }), ...(response && { response }) };
  }
}

function splitLegs(latency: LegLatency | undefined): Resolved {
  if (latency === undefined) return {};
  if (latency.kind !== undefined) return { request: latency, response: latency };
  return {
    ...(latency.request && { request: latency.request }),
    ...(latency.response && { response: latency.response }),
  };
}
