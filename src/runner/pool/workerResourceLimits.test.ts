import { Worker, type ResourceLimits } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { WORKER_YOUNG_GENERATION_MB, workerResourceLimits } from './TrialWorker.js';

const limitsOf = async (resourceLimits?: ResourceLimits): Promise<ResourceLimits | undefined> => {
  const worker = new Worker('require("node:worker_threads").parentPort.postMessage(0)', { eval: true, ...(resourceLimits && { resourceLimits }) });
  await new Promise((resolve) => worker.once('message', resolve));
  const limits = worker.resourceLimits;
  await worker.terminate();
  return limits;
};

describe("a trial worker's heap limits", () => {
  it('keep --worker-heap as the old generation and give the young one more room than V8 gives a worker', async () => {
    const ours = await limitsOf(workerResourceLimits(64));
    expect(ours).toMatchObject({ maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB });
    // If a Node release ever gives workers at least as much, the setting has stopped doing anything.
    const byDefault = await limitsOf();
    expect(byDefault!.maxYoungGenerationSizeMb).toBeLessThan(WORKER_YOUNG_GENERATION_MB);
  });
});
