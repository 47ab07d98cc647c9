/** The rows of docs/architecture.md's floors table, lowest first: `core`, `world`, …, `agent/kinds`, … */
export function mapFolders(markdown: string): string[] {
  return [...markdown.matchAll(/^\|\s*\d+\s*\|\s*`src\/([\w/-]+?)\/?`/gm)].map((m) => m[1]!);
}
