/** Text that renders as itself in HTML text and attribute values. */
export const escapeHtml = (text: string): string =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

/** JSON that can sit inside a <script> element: no `<` can close it. */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

// Nothing may be fetched: the page must open offline from a CI artifact.
export const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

export interface HtmlPage {
  readonly title: string;
  readonly style: string;
  /** The markup between the page's `<h1>` title and its scripts. */
  readonly body: string;
  /** Embedded as `<script type="application/json" id="faultline-data">`, where the scripts read it. */
  readonly data: unknown;
  /** Inline script sources, in order. */
  readonly scripts: readonly string[];
}

/** One self-contained page: the policy that forbids every fetch, the title, the data, the scripts. */
export function htmlPage({ title, style, body, data, scripts }: HtmlPage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
<script type="application/json" id="faultline-data">${scriptJson(data)}</script>
${scripts.map((s) => `<script>${s}</script>`).join('\n')}
</body>
</html>
`;
}
