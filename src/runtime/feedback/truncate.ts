/**
 * Cuts `text` to at most `maxChars`, ending with a marker that says how much is missing,
 * so the model knows the output is incomplete instead of reading a silently cut answer.
 */
export function truncateText(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const marker = (omitted: number): string => `\n…[output truncated: ${omitted} of ${text.length} characters omitted]`;
  // The marker's own length depends on the count; one fix-up pass settles it.
  let keep = Math.max(0, maxChars - marker(text.length).length);
  keep = Math.max(0, maxChars - marker(text.length - keep).length);
  return { text: text.slice(0, keep) + marker(text.length - keep), truncated: true };
}
