import { describe, expect, it } from 'vitest';
import { rulebookDefault } from './config.js';
import {
  asExecutionConfig,
  ExecutionConfigFileSchema,
  parseExecutionConfig,
  runtimeConfig,
} from './executionConfig.js';

describe('parseExecutionConfig', () => {
  it('reads a file without `kind` as the reference runtime, so every RetryConfig file works unchanged', () => {
    const c = parseExecutionConfig({ name: 'rulebook', description: rulebookDefault.description });
    expect(c).toEqual({
      kind: 'runtime',
      name: 'rulebook',
      description: rulebookDefault.description,
      retry: rulebookDefault,
      layers: { sdkRetries: 0, agentRepeats: 0 },
    });
    expect(
      parseExecutionConfig({ kind: 'runtime', name: 'rulebook', description: rulebookDefault.description }),
    ).toEqual(c);
  });

  it('reads the libraries by kind, with their defaults, and layers for any kind', () => {
    const c = parseExecutionConfig({ kind: 'cockatiel', name: 'c', maxAttempts: 5, layers: { agentRepeats: 1 } });
    expect(c).toMatchObject({
      kind: 'cockatiel',
      name: 'c',
      description: '',
      layers: { sdkRetries: 0, agentRepeats: 1 },
    });
    expect(c.kind === 'cockatiel' && [c.library.maxAttempts, c.library.backoff.kind, c.library.timeoutMs]).toEqual([
      5,
      'exponential',
      10_000,
    ]);
    const p = parseExecutionConfig({
      kind: 'p-retry',
      name: 'p',
      description: 'd',
      retries: 2,
      layers: { sdkRetries: 2 },
    });
    expect(p).toMatchObject({
      kind: 'p-retry',
      name: 'p',
      description: 'd',
      layers: { sdkRetries: 2, agentRepeats: 0 },
    });
    expect(p.kind === 'p-retry' && p.library.retries).toBe(2);
  });

  it('names the source, the path inside it and what was expected', () => {
    const message = (value: unknown): string => {
      try {
        parseExecutionConfig(value, 'configs/x.yaml');
      } catch (error) {
        expect(error).toMatchObject({ code: 'FAULTLINE_CONFIG_INVALID' });
        return (error as Error).message;
      }
      throw new Error('expected a refusal');
    };
    expect(message({ name: 'x', kind: 'polly' })).toBe(
      'configs/x.yaml: invalid retry configuration:\n  - kind: expected one of runtime, cockatiel, p-retry, got "polly"',
    );
    expect(message([1])).toBe('configs/x.yaml: invalid retry configuration:\n  - (root): expected an object');
    expect(message({ name: 'x', layers: { sdkRetries: 1.5 } })).toMatch(
      /^configs\/x\.yaml: invalid retry configuration:\n {2}- layers\.sdkRetries: /,
    );
    expect(message({ name: 'x', layers: { agentRepeat: 1 } })).toMatch(
      /^configs\/x\.yaml: invalid retry configuration:\n {2}- layers: Unrecognized key: "agentRepeat"/,
    );
    expect(message({ name: 'x', kind: 'cockatiel', backoff: { kind: 'exponential', generator: 'wobbly' } })).toMatch(
      /\n {2}- backoff\.generator: /,
    );
    // A runtime field in a library file is refused, not silently ignored.
    expect(message({ name: 'x', kind: 'p-retry', maxAttempts: 3 })).toMatch(
      /\n {2}- \(root\): Unrecognized key: "maxAttempts"/,
    );
    expect(message({ name: 'x', backoff: { kind: 'exponential', baseMs: 0, capMs: 1, jitter: 'full' } })).toMatch(
      /\n {2}- backoff\.baseMs: /,
    );
  });
});

describe('asExecutionConfig', () => {
  it('takes a bare RetryConfig as the runtime with no layers, and an ExecutionConfig as itself', () => {
    expect(asExecutionConfig(rulebookDefault)).toEqual(runtimeConfig(rulebookDefault));
    const c = parseExecutionConfig({ kind: 'cockatiel', name: 'c' });
    expect(asExecutionConfig(c)).toBe(c);
  });
});

describe('ExecutionConfigFileSchema', () => {
  it('accepts what the parser accepts and refuses a library file with runtime fields, as the JSON Schema tells editors', () => {
    for (const file of [
      { name: 'r' },
      { name: 'r', kind: 'runtime', layers: { sdkRetries: 2 } },
      { name: 'c', kind: 'cockatiel' },
      { name: 'p', kind: 'p-retry', retries: 1 },
    ]) {
      expect(ExecutionConfigFileSchema.safeParse(file).success, JSON.stringify(file)).toBe(true);
      expect(() => parseExecutionConfig(file)).not.toThrow();
    }
    expect(ExecutionConfigFileSchema.safeParse({ name: 'p', kind: 'p-retry', maxAttempts: 3 }).success).toBe(false);
    expect(ExecutionConfigFileSchema.safeParse({ name: 'x', kind: 'polly' }).success).toBe(false);
  });
});
