/** XML escaping for the JUnit reporter. */

// XML 1.0 forbids most control characters even when escaped; they become U+FFFD.
const INVALID = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text content: `&`, `<`, `>` escaped, characters XML cannot carry replaced. */
export const escapeXmlText = (text: string): string =>
  text.replace(INVALID, '\uFFFD').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** An attribute value in double quotes; line breaks and tabs kept as character references so parsers do not fold them. */
export const escapeXmlAttr = (text: string): string =>
  escapeXmlText(text)
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;')
    .replaceAll('\n', '&#10;')
    .replaceAll('\r', '&#13;')
    .replaceAll('\t', '&#9;');

/** `<name a="1" b="2"` (unclosed), attributes in the given order. */
export function openTag(name: string, attrs: Readonly<Record<string, string | number>>): string {
  const parts = Object.entries(attrs).map(([k, v]) => ` ${k}="${escapeXmlAttr(String(v))}"`);
  return `<${name}${parts.join('')}`;
}
