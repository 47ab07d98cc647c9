/**
 * What a run's columns are. A run's cells are labelled by configuration, or by matrix agent
 * (`agents` in faultline.config.ts) when the agent is what varies: every table, headline and
 * header that names the columns says which, so a matrix of agents is not reported as one of
 * configurations.
 */
export type ColumnWord = 'configuration' | 'agent' | 'agent or configuration' | 'behaviour';

/**
 * The cells' columns (a run's cells, or faultline.json's): `agent` when every label is a matrix agent's, `behaviour`
 * when every label is the stand-in's behaviour (`--behaviour careful,retries-blindly` over one configuration).
 */
export function columnWord(
  cells: readonly {
    readonly config: string;
    readonly refs: { readonly agent?: string | undefined; readonly behaviour?: string | undefined };
  }[],
): ColumnWord {
  if (cells.length > 0 && cells.every((c) => c.refs.behaviour === c.config)) return 'behaviour';
  if (!cells.some((c) => c.refs.agent !== undefined)) return 'configuration';
  return cells.every((c) => c.refs.agent === c.config) ? 'agent' : 'agent or configuration';
}

/** `1 agent`, `3 configurations`, `2 agents or configurations`: how a headline counts the columns. */
export const countColumns = (n: number, word: ColumnWord): string => {
  if (n === 1) return `1 ${word}`;
  return `${n} ${word === 'agent or configuration' ? 'agents or configurations' : `${word}s`}`;
};
