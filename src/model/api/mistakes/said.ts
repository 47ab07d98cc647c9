/** One tool call as a model answer carries it: its id, the tool's name, the arguments as text (JSON, or not). */
export interface SaidCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** What one model answer says, in any dialect: its text and its tool calls. */
export interface Said {
  readonly text: string;
  readonly calls: readonly SaidCall[];
}

/**
 * How a mistaken answer ends: as it would have (`done`), out of tokens (`length`: `finish_reason:
 * length`, `stop_reason: max_tokens`, a Responses answer `incomplete`), refused, or filtered.
 */
export type SaidStop = 'done' | 'length' | 'refusal' | 'content_filter';

/** A model answer as a mistake made it: what it says, how it ends, and a refusal's words. */
export interface Mistaken extends Said {
  readonly stop: SaidStop;
  readonly refusal?: string;
}

/** A tool the request offered: its name and its input schema (JSON Schema, as the request sent it). */
export interface OfferedTool {
  readonly name: string;
  readonly schema: unknown;
}

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The tools a model request offers, in any of the three dialects: Chat Completions'
 * `{ type: 'function', function: { name, parameters } }`, Responses' `{ type: 'function', name,
 * parameters }`, Anthropic's `{ name, input_schema }`.
 */
export function offeredTools(body: unknown): OfferedTool[] {
  const tools = isObj(body) && Array.isArray(body['tools']) ? body['tools'] : [];
  const out: OfferedTool[] = [];
  for (const t of tools) {
    if (!isObj(t)) continue;
    const fn = isObj(t['function']) ? t['function'] : t;
    if (typeof fn['name'] !== 'string') continue;
    out.push({ name: fn['name'], schema: fn['parameters'] ?? fn['input_schema'] ?? t['input_schema'] });
  }
  return out;
}

/** An answer as the history's `lie` event keeps it: only what it has (text, calls, how it ended). */
export function saidRecord(said: Said | Mistaken): Record<string, unknown> {
  const stop = 'stop' in said && said.stop !== 'done' ? said.stop : undefined;
  return {
    ...(said.text === '' && said.calls.length > 0 ? {} : { text: said.text }),
    ...(said.calls.length > 0 && {
      calls: said.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
    }),
    ...(stop && { stop }),
    ...('refusal' in said && said.refusal !== undefined && { refusal: said.refusal }),
  };
}
