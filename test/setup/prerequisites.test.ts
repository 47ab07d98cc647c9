/**
 * A test that needs an absent component skips outside CI with one line saying what to install
 * and how, and under CI (or its FAULTLINE_REQUIRE_* = 1) does not skip, so it fails.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHROMIUM_BROWSER, DOCKER, missingLine, PYTHON_OPENAI, required, skipWithout } from './prerequisites.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('prerequisites', () => {
  it('skips outside CI with one line naming what is missing and how to install it', () => {
    vi.stubEnv('CI', '');
    vi.stubEnv('FAULTLINE_REQUIRE_PYTHON', '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(skipWithout(PYTHON_OPENAI, 'python3 has no openai package')).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    const line = String(warn.mock.calls[0]![0]);
    expect(line).not.toContain('\n');
    expect(line).toMatch(
      /^\[faultline\] skipping the Python agent tests: python3 has no openai package; install: python3 -m pip install openai==\S+ \(or all three: bash scripts\/prerequisites\.sh\)/,
    );
  });

  it('does not skip when nothing is missing, nor under CI or FAULTLINE_REQUIRE_*=1, and says nothing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.stubEnv('CI', '');
    vi.stubEnv('FAULTLINE_REQUIRE_DOCKER', '');
    // .ci/run exports it (scripts/ci-chromium.sh): cleared here, so the case reads CI alone.
    vi.stubEnv('FAULTLINE_REQUIRE_CHROMIUM', '');
    expect(skipWithout(DOCKER, undefined)).toBe(false);
    expect(required(DOCKER)).toBe(false);
    vi.stubEnv('FAULTLINE_REQUIRE_DOCKER', '1');
    expect([required(DOCKER), skipWithout(DOCKER, 'no Docker daemon answers')]).toEqual([true, false]);
    vi.stubEnv('FAULTLINE_REQUIRE_DOCKER', '');
    for (const ci of ['true', '1']) {
      vi.stubEnv('CI', ci);
      expect([required(CHROMIUM_BROWSER), skipWithout(CHROMIUM_BROWSER, 'no chromium at /x')]).toEqual([true, false]);
    }
    vi.stubEnv('CI', 'false');
    expect(required(CHROMIUM_BROWSER)).toBe(false);
    expect(warn).not.toHaveBeenCalled();
  });

  it('gives the failing tests the same one line', () => {
    expect(missingLine(CHROMIUM_BROWSER, 'no chromium at /x')).toBe(
      'the HTML report tests in headless Chromium need what is missing here, no chromium at /x; install: apt-get install -y chromium, or FAULTLINE_CHROMIUM=/path/to/chromium (or all three: bash scripts/prerequisites.sh)',
    );
  });
});
