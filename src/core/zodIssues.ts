import type { z } from 'zod';

/** `faults[0].fault.kind` from a zod issue path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    const key = String(p);
    // A key that is not a plain identifier (`order.created`) is quoted, so the path stays unambiguous.
    if (typeof p === 'number') out += `[${p}]`;
    else if (!/^[A-Za-z_$][\w$-]*$/.test(key)) out += `[${JSON.stringify(key)}]`;
    else out += out === '' ? key : `.${key}`;
  }
  return out === '' ? '(root)' : out;
}

/** One line per issue: where (under `prefix`), then what was expected. */
export function formatIssues(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): string[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // Report the branch that got furthest instead of "Invalid input" for the whole union: first
      // one whose tag (`kind: command`) matched, so a command agent without argv is told about
      // argv, not that its kind should have been "http".
      const best = [...issue.errors].sort((a, b) => tagMissed(a) - tagMissed(b) || depth(b) - depth(a))[0] ?? [];
      if (best.length > 0)
        return formatIssues(
          best.map((i) => ({ ...i, path: [...issue.path, ...i.path] })),
          prefix,
        );
    }
    return [`${formatPath([...prefix, ...issue.path])}: ${issue.message}`];
  });
}

const depth = (issues: readonly z.core.$ZodIssue[]): number => Math.max(0, ...issues.map((i) => i.path.length));

/** 1 when a branch failed on a literal at its top level (the tag of a tagged union), else 0. */
const tagMissed = (issues: readonly z.core.$ZodIssue[]): number =>
  issues.some((i) => i.code === 'invalid_value' && i.path.length === 1) ? 1 : 0;
