import { fileURLToPath } from 'node:url';

// This folder, as a stack frame may name it (a path, or a file URL under some loaders).
const HERE_URL = new URL('.', import.meta.url).href;
const HERE_PATH = fileURLToPath(HERE_URL);

/**
 * The stack frame of whoever called into `faultline/vitest` (the user's test file): the first
 * frame outside this folder. Taken when `describeScenarios` is called, since the tests it
 * declares run later from vitest's own frames and faultline's.
 */
export function callerSite(): string | undefined {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  return frames.find(
    (line) =>
      /^\s+at /.test(line) && !line.includes(HERE_PATH) && !line.includes(HERE_URL) && !/\(node:|at node:/.test(line),
  );
}

/**
 * The failures of a test `describeScenarios` declared, as one error whose stack is the
 * caller's frame: vitest shows the code frame of an error's first frame in the project, which
 * would otherwise be faultline's `describeScenarios.js`, not the line that declared the test.
 */
export function failureAt(failures: readonly Error[], site: string | undefined): Error {
  const error =
    failures.length === 1
      ? failures[0]!
      : Object.assign(new Error(joined(failures.map((f) => f.message))), { name: 'AssertionError' });
  if (site !== undefined) error.stack = `${error.name}: ${error.message}\n${site}`;
  return error;
}

/**
 * Every failure's first line, then the paragraphs after them (the evidence, the fault
 * coverage) each once: the gates of one cell mostly cite the same failed trial.
 */
function joined(messages: readonly string[]): string {
  const paragraphs = messages.map((m) => m.split('\n\n'));
  const rest = [...new Set(paragraphs.flatMap((p) => p.slice(1)))];
  return [paragraphs.map((p) => p[0]!).join('\n'), ...rest].join('\n\n');
}
