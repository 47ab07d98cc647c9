import { describe, expect, it } from 'vitest';
import { rulebookDefault } from '../../runtime/config.js';
import { parseContentionConfig } from './ContentionConfig.js';
import { loadContentionConfigs, loadContentionScenarios } from './library.js';
import { parseContentionScenario } from './ContentionScenario.js';

describe('parseContentionConfig', () => {
  it('reads any RetryConfig file as a runtime configuration, with no extra layers', () => {
    const c = parseContentionConfig({ name: 'rulebook', description: rulebookDefault.description });
    expect(c).toEqual({ kind: 'runtime', name: 'rulebook', description: rulebookDefault.description, retry: rulebookDefault, layers: { sdkRetries: 0, agentRepeats: 0 } });
  });

  it('reads layers, and library configurations by kind with their defaults', () => {
    expect(parseContentionConfig({ name: 'n', layers: { sdkRetries: 2, agentRepeats: 2 } }).layers).toEqual({ sdkRetries: 2, agentRepeats: 2 });
    const c = parseContentionConfig({ kind: 'cockatiel', name: 'c' });
    expect(c.kind === 'cockatiel' && c.library).toEqual({
      kind: 'cockatiel',
      name: 'c',
      description: '',
      timeoutMs: 10_000,
      maxAttempts: 3,
      backoff: { kind: 'exponential', initialDelay: 128, maxDelay: 30_000, exponent: 2, generator: 'decorrelated' },
      circuitBreaker: null,
    });
    const p = parseContentionConfig({ kind: 'p-retry', name: 'p', retries: 2 });
    expect(p.kind === 'p-retry' && [p.library.retries, p.library.minTimeout, p.library.maxTimeout, p.library.randomize]).toEqual([2, 1_000, null, false]);
  });

  it('names the file, the path and what was expected when a file is wrong', () => {
    expect(() => parseContentionConfig({ kind: 'polly', name: 'x' }, 'x.yaml')).toThrow('x.yaml: invalid retry configuration:\n  - kind: expected one of runtime, cockatiel, p-retry, got "polly"');
    expect(() => parseContentionConfig({ kind: 'p-retry', name: 'x', retries: -1 }, 'p.yaml')).toThrow(/p\.yaml: invalid retry configuration:\n {2}- retries: /);
    expect(() => parseContentionConfig({ name: 'x', layers: { sdk: 1 } }, 'l.yaml')).toThrow(/l\.yaml: invalid retry configuration:\n {2}- layers: Unrecognized key/);
    expect(() => parseContentionConfig({ name: 'x', maxAttempts: 0 }, 'r.yaml')).toThrow(/r\.yaml: invalid retry configuration:\n {2}- maxAttempts: /);
  });
});

describe('parseContentionScenario', () => {
  it('fills in the defaults', () => {
    const s = parseContentionScenario({ name: 'occ', service: { kind: 'optimistic' } });
    expect(s).toMatchObject({ agents: 100, callsPerAgent: 1, thinkTimeMs: 0, arrival: { kind: 'burst' }, budget: { maxDeliveriesPerCall: 10, deadlineMs: null }, maxK: 8 });
    expect(s.service).toMatchObject({ kind: 'optimistic', records: 1, transactionMs: 10, capacity: { maxConcurrent: null, queueLimit: 0, rateLimit: null } });
  });

  it('refuses an unknown service kind, naming the path', () => {
    expect(() => parseContentionScenario({ name: 'x', service: { kind: 'queue' } }, 's.yaml')).toThrow(/s\.yaml: invalid contention scenario:\n {2}- service\.kind/);
  });
});

describe('the built-in contention library', () => {
  it('loads every scenario and configuration, names unique, with the strategies the comparison needs', async () => {
    const scenarios = await loadContentionScenarios();
    expect(scenarios.map((s) => s.name)).toEqual(['jobs-outage', 'jobs-overload', 'optimistic-100']);
    const configs = await loadContentionConfigs();
    expect(configs.map((c) => `${c.kind}:${c.name}`)).toEqual([
      'runtime:circuit-breaker',
      'cockatiel:cockatiel-decorrelated',
      'runtime:decorrelated-jitter',
      'runtime:equal-jitter',
      'runtime:exponential-no-jitter',
      'runtime:full-jitter-cap-1s',
      'runtime:full-jitter',
      'runtime:nested-three-layers',
      'runtime:no-backoff',
      'p-retry:p-retry-randomized',
      'runtime:retry-after-ignored',
      'runtime:retry-token-bucket',
    ]);
  });

  it('finds a top-level configuration by name too', async () => {
    expect((await loadContentionConfigs(['rulebook', 'full-jitter'])).map((c) => c.name)).toEqual(['rulebook', 'full-jitter']);
    await expect(loadContentionConfigs(['nope'])).rejects.toThrow(/no configuration file or built-in configuration named "nope"/);
  });
});
