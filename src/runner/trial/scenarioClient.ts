import type { Clock, Rng, Transport } from '../../core/index.js';
import { ClientRetries } from '../../faults/ClientRetries.js';
import type { Scenario } from '../../scenario/scenario.js';

/**
 * The tools' own SDK client the scenario declares (`client.sdkRetries`), retrying below the execution layer; the wire
 * when it declares none.
 */
export function scenarioClient(scenario: Scenario, wire: Transport, clock: Clock, rng: Rng): Transport {
  const client = scenario.client;
  return client
    ? new ClientRetries(wire, {
        maxRetries: client.sdkRetries,
        clock,
        rng,
        ...(client.tools && { tools: client.tools }),
      })
    : wire;
}
