import type { ModelMistake } from '../../../faults/fault.js';
import type { MistakeDraws } from '../../../faults/http/HttpRoute.js';
import type { Rng } from '../../../core/index.js';
import { invalidArguments, malformedArguments, wrongTarget } from './argumentMistakes.js';
import { nearMissName } from './nearMissName.js';
import type { Mistaken, OfferedTool, Said, SaidCall } from './said.js';

/** The provider's usual refusal, when the fault names none. */
export const DEFAULT_REFUSAL = "I'm sorry, but I can't help with that.";

/** What a gateway in front of the model answers 200 with when the model behind it failed. */
export const DEFAULT_ERROR_TEXT =
  '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>' +
  '<p>The upstream model server returned an invalid response. Request ID: req_0f3a9c</p></body></html>';

/** Mojibake: UTF-8 read as Latin-1 for the non-ASCII characters, and U+FFFD for a drawn share of the rest. */
function garble(text: string, rng: Rng): string {
  let out = '';
  for (const ch of text) {
    if (ch.charCodeAt(0) > 0x7f) out += Buffer.from(ch, 'utf8').toString('latin1');
    else if (/[A-Za-z0-9 ]/.test(ch) && rng.chance(0.3)) out += '\uFFFD';
    else out += ch;
  }
  return out === text && text.length > 0 ? `\uFFFD${text.slice(1)}` : out;
}

/** The string values of JSON arguments garbled, the JSON itself intact (a broken encoding, not a broken syntax). */
function garbleArguments(args: string, rng: Rng): string {
  try {
    const value = JSON.parse(args) as unknown;
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'string' ? garble(v, rng) : v));
  } catch {
    return garble(args, rng);
  }
}

/** One of the answer's calls, drawn, changed by `change` (none: no call, or the change found nothing to do). */
function oneCall(
  said: Said,
  rng: Rng,
  change: (call: SaidCall) => Partial<SaidCall> | undefined,
  stop: Mistaken['stop'] = 'done',
): Mistaken | undefined {
  if (said.calls.length === 0) return undefined;
  const at = rng.int(0, said.calls.length - 1);
  const changed = change(said.calls[at]!);
  if (changed === undefined) return undefined;
  return { text: said.text, calls: said.calls.map((c, i) => (i === at ? { ...c, ...changed } : c)), stop };
}

/** Text cut to at most `keep` characters, always one fewer than the whole: an answer out of tokens. */
const cutShort = (text: string, keep: number): string => text.slice(0, Math.max(0, Math.min(keep, text.length - 1)));

/**
 * The answer `said` made wrong the way `fault` says, drawing from `draws`: `undefined` when the
 * answer gives the fault nothing to work on (a call-breaking fault on an answer without calls, a
 * wrong target with no other entity in the world, a text fault on an answer already empty).
 * `replayed` and `context_length` are not made here: they need the route's memory and the
 * provider's error (`ModelResponder`).
 */
export function drawMistake(
  fault: Exclude<ModelMistake, { kind: 'replayed' | 'context_length' }>,
  said: Said,
  offered: readonly OfferedTool[],
  draws: MistakeDraws,
): Mistaken | undefined {
  const { rng } = draws;
  const noCalls = (text: string, stop: Mistaken['stop'] = 'done'): Mistaken => ({ text, calls: [], stop });
  switch (fault.kind) {
    case 'malformed_arguments':
      return oneCall(said, rng, (c) => ({ arguments: malformedArguments(c.arguments, rng) }));
    case 'invalid_arguments':
      return oneCall(said, rng, (c) => {
        const schema = offered.find((t) => t.name === c.name)?.schema;
        const made = invalidArguments(c.arguments, schema, rng, fault.break);
        return made && { arguments: made.arguments };
      });
    case 'wrong_target':
      return oneCall(said, rng, (c) => {
        const args = wrongTarget(c.arguments, draws.entities(), rng);
        return args === undefined ? undefined : { arguments: args };
      });
    case 'unknown_tool':
      return oneCall(said, rng, (c) => {
        const name = nearMissName(
          c.name,
          offered.map((t) => t.name),
          rng,
        );
        return name === undefined ? undefined : { name };
      });
    case 'truncated': {
      const at = fault.at ?? (said.calls.length > 0 ? 'tool_call' : 'text');
      if (at === 'tool_call') {
        // Cut inside the last call, as a provider cuts: the calls after it never came.
        if (said.calls.length === 0) return undefined;
        const last = said.calls.at(-1)!;
        const cut = { ...last, arguments: cutShort(last.arguments, fault.keep) };
        return { text: said.text, calls: [...said.calls.slice(0, -1), cut], stop: 'length' };
      }
      if (said.text === '') return undefined;
      return noCalls(cutShort(said.text, fault.keep), 'length');
    }
    case 'refusal':
      return { text: '', calls: [], stop: 'refusal', refusal: fault.message ?? DEFAULT_REFUSAL };
    case 'content_filter':
      // Filtered part way: what came before the filter stays.
      return noCalls(said.text === '' ? '' : said.text.slice(0, rng.int(0, said.text.length - 1)), 'content_filter');
    case 'empty_text':
      return said.text === '' && said.calls.length === 0 ? undefined : noCalls('');
    case 'garbled':
      if (said.calls.length > 0) return oneCall(said, rng, (c) => ({ arguments: garbleArguments(c.arguments, rng) }));
      return said.text === '' ? undefined : noCalls(garble(said.text, rng));
    case 'error_in_200':
      return noCalls(fault.message ?? DEFAULT_ERROR_TEXT);
  }
}
