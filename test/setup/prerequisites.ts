/**
 * The components a few tests need that `npm ci` does not install: Python's `openai` package (the
 * worked Python agent), Debian's Chromium (the HTML reports), a Docker daemon or DATABASE_URL
 * (Postgres). `bash scripts/prerequisites.sh` installs all three; `npm test` never does.
 * Without one, its tests skip with one line saying what to install and how, except under CI (`CI`
 * set, or the component's FAULTLINE_REQUIRE_* = 1): .ci/run installs them all, so there a missing
 * component is a failed setup and its tests fail, each with that same line.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Prerequisite {
  /** Which tests need it. */
  readonly tests: string;
  /** How to install it, in one line. */
  readonly install: string;
  /** The variable that makes its absence a failure outside CI too. */
  readonly requireVar: string;
}

/** The Python packages scripts/ci-python.sh pins (one list, read from there). */
const PYTHON_PACKAGES =
  /PYTHON_PACKAGES=\(([^)]*)\)/
    .exec(readFileSync(new URL('../../scripts/ci-python.sh', import.meta.url), 'utf8'))?.[1]
    ?.trim() ?? 'openai';

export const PYTHON_OPENAI: Prerequisite = {
  tests: 'the Python agent tests',
  install: `python3 -m pip install ${PYTHON_PACKAGES}`,
  requireVar: 'FAULTLINE_REQUIRE_PYTHON',
};
export const CHROMIUM_BROWSER: Prerequisite = {
  tests: 'the HTML report tests in headless Chromium',
  install: 'apt-get install -y chromium, or FAULTLINE_CHROMIUM=/path/to/chromium',
  requireVar: 'FAULTLINE_REQUIRE_CHROMIUM',
};
export const DOCKER: Prerequisite = {
  tests: 'the Postgres tests',
  install:
    'apt-get install -y docker.io and start dockerd (bash scripts/ci-postgres.sh does both and builds the image), or set DATABASE_URL',
  requireVar: 'FAULTLINE_REQUIRE_DOCKER',
};

const underCi = (): boolean => !['', '0', 'false'].includes(process.env['CI'] ?? '');

/** Whether `p`'s tests must run here: under CI or with its FAULTLINE_REQUIRE_* = 1. */
export const required = (p: Prerequisite): boolean => underCi() || process.env[p.requireVar] === '1';

const howTo = (p: Prerequisite): string => `install: ${p.install} (or all three: bash scripts/prerequisites.sh)`;

/** The one line a test that needs `p` fails with where `p` is required and `missing`. */
export const missingLine = (p: Prerequisite, missing: string): string =>
  `${p.tests} need what is missing here, ${missing}; ${howTo(p)}`;

/**
 * True when `p`'s tests are to be skipped: something is `missing` and nothing requires it. Says
 * so in one line. Where `p` is required, never skips: the tests fail, each with `missingLine`.
 */
export function skipWithout(p: Prerequisite, missing: string | undefined): boolean {
  if (missing === undefined || required(p)) return false;
  console.warn(
    `[faultline] skipping ${p.tests}: ${missing}; ${howTo(p)}. Under CI, or with ${p.requireVar}=1, they fail instead.`,
  );
  return true;
}

/** What keeps python3 with the pinned openai from running here, if anything. */
export function pythonMissing(): string | undefined {
  const r = spawnSync(
    'python3',
    ['-c', 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("openai") else 3)'],
    { encoding: 'utf8' },
  );
  if (r.error) return `python3 cannot be started (${r.error.message})`;
  if (r.status === 3) return 'python3 has no openai package';
  return r.status === 0
    ? undefined
    : `python3 failed (exit ${String(r.status)}: ${r.stderr.trim().split('\n').at(-1) ?? ''})`;
}
