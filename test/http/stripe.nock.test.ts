import { runWithNock } from '../../src/public/nock.js';
import { describeStripeSdk, type StripeTrial } from './stripeApi.js';

// The SDK's default HTTP client is node:http (its NodeHttpClient), which nock intercepts; its
// 80 s request timeout (`req.setTimeout`), its retry backoff (`setTimeout`) and its jitter
// (`Math.random`, seeded from the trial) all run on the virtual clock.
describeStripeSdk('nock', (trial: StripeTrial, body) =>
  runWithNock(trial.faults, trial.clock, body, { timers: { random: trial.clientRandom } }),
);
