import { runWithMsw } from '../../src/public/msw.js';
import { describeStripeSdk, type StripeTrial } from './stripeApi.js';

// The SDK's default HTTP client is node:http (its NodeHttpClient), which msw intercepts; its
// 80 s request timeout (`req.setTimeout`), its retry backoff (`setTimeout`) and its jitter
// (`Math.random`, seeded from the trial) all run on the virtual clock.
describeStripeSdk('msw', (trial: StripeTrial, body) =>
  runWithMsw(trial.faults, trial.clock, body, { timers: { random: trial.clientRandom } }),
);
