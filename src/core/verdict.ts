/** Jepsen's three values: a checker may be unable to decide, and says so. */
export type Verdict =
  | { readonly valid: true }
  | { readonly valid: false; readonly message: string; readonly evidence: readonly unknown[] }
  | { readonly valid: 'unknown'; readonly message: string };
export type VerdictValue = Verdict['valid'];

export const pass = (): Verdict => ({ valid: true });
export const fail = (message: string, evidence: readonly unknown[] = []): Verdict => ({
  valid: false,
  message,
  evidence,
});
export const undecided = (message: string): Verdict => ({ valid: 'unknown', message });

/** Checkers that find several problems report them as one verdict with all the evidence. */
export function failAll(problems: readonly { message: string; evidence: unknown }[]): Verdict {
  if (problems.length === 0) return pass();
  const head = problems.slice(0, 3).map((p) => p.message);
  const more = problems.length > 3 ? ` (+${problems.length - 3} more)` : '';
  return fail(
    head.join('; ') + more,
    problems.map((p) => p.evidence),
  );
}
