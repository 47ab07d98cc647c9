/**
 * The last `max` characters of `text`, after `…` when it was cut; a cut never starts inside one of
 * `secrets` (it moves past it): a piece of a secret is found by no later scrub of the whole secret.
 */
export function tailText(text: string, max: number, secrets: readonly string[] = []): string {
  if (text.length <= max) return text;
  let start = text.length - max;
  for (let moved = true; moved;) {
    moved = false;
    for (const secret of secrets) {
      if (secret === '') continue;
      const at = text.lastIndexOf(secret, start - 1);
      if (at !== -1 && at + secret.length > start) {
        start = at + secret.length;
        moved = true;
      }
    }
  }
  return `…${text.slice(start)}`;
}
