import type { TrialEnd } from '../../checks/record.js';
import { Cassette } from '../../model/api/Cassette.js';
import { sealSecrets } from '../../model/api/cassetteSecrets.js';
import { modelExchanges } from '../../model/api/modelExchanges.js';
import type { Scenario } from '../../scenario/scenario.js';
import type { LiveParts } from './judgeTrial.js';

/**
 * A live trial's recording, kept (its secrets sealed) where the run says (`keep`, synchronous: no
 * trial waits a turn for it), and the model its answers came from.
 */
export function liveParts(
  scenario: Scenario,
  given: Cassette | undefined,
  keep: ((recording: Cassette) => string) | undefined,
  end: TrialEnd,
): LiveParts {
  // An infra-error trial's recording says so: a replay of it must not judge the agent on answers the provider never gave.
  const recording =
    given?.trial && end.kind === 'infra_error'
      ? new Cassette(given.api, given.entries, { ...given.trial, infraError: end.message })
      : given;
  const file = recording && keep ? keep(sealSecrets(recording, scenario.secrets)) : undefined;
  const model = scenario.model?.name ?? (recording ? modelNamedIn(recording) : undefined);
  return {
    ...(file !== undefined && { recording: file }),
    ...(model !== undefined && { model }),
    ...(recording && recording.entries.length > 0 && { exchanges: modelExchanges(recording.entries) }),
  };
}

/** The model a live trial's requests named (the first that names one). */
function modelNamedIn(recording: Cassette): string | undefined {
  for (const e of recording.entries) {
    const body = e.request.body as { model?: unknown } | null;
    if (typeof body === 'object' && body !== null && typeof body.model === 'string') return body.model;
  }
  return undefined;
}
