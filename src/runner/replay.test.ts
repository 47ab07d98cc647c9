import { describe, expect, it } from 'vitest';
import { replayCommand, shellQuote } from './replay.js';

describe('replayCommand', () => {
  it('names the scenario, configuration, run seed and trial', () => {
    expect(replayCommand({ scenario: 'order-partial-write', config: 'naive', runSeed: 42, trialIndex: 3 })).toBe(
      'faultline replay order-partial-write --config naive --seed 42 --trial 3',
    );
  });

  it('names user files by their path, so a replay finds them', () => {
    expect(
      replayCommand({
        scenario: 'my-flow',
        config: 'mine',
        runSeed: 1,
        trialIndex: 2,
        refs: { scenario: './flows/my flow.yaml', config: 'configs/mine.yaml' },
      }),
    ).toBe("faultline replay './flows/my flow.yaml' --config configs/mine.yaml --seed 1 --trial 2");
  });

  it('quotes names a shell would split or expand', () => {
    expect(replayCommand({ scenario: 'a', config: "it's <mine> & $HOME", runSeed: -7, trialIndex: 0 })).toBe(
      `faultline replay a --config 'it'\\''s <mine> & $HOME' --seed -7 --trial 0`,
    );
    expect(shellQuote('rulebook-v2.1')).toBe('rulebook-v2.1');
    expect(shellQuote('')).toBe("''");
  });
});
