import { canonicalJson } from '../../core/canonical.js';
import type { Risk } from './tracedFaults.js';
import type { TracedCall } from './tracedRun.js';

/** A zod expression for the values one input field took across the calls (`z.string()`, a union when they differ). */
function zodOf(values: readonly unknown[]): string {
  const kinds = new Set(
    values.map((v) =>
      typeof v === 'string'
        ? 'z.string()'
        : typeof v === 'number'
          ? Number.isInteger(v)
            ? 'z.number().int()'
            : 'z.number()'
          : typeof v === 'boolean'
            ? 'z.boolean()'
            : v === null
              ? 'z.null()'
              : Array.isArray(v)
                ? 'z.array(z.unknown())'
                : 'z.record(z.string(), z.unknown())',
    ),
  );
  // An integer in one call and a fraction in another: a number.
  if (kinds.has('z.number()')) kinds.delete('z.number().int()');
  const list = [...kinds].sort();
  return list.length === 1 ? list[0]! : `z.union([${list.join(', ')}])`;
}

/** The input schema the calls imply: every field any call sent, optional where some call left it out. */
export function inferredInput(inputs: readonly Record<string, unknown>[]): string {
  const keys = [...new Set(inputs.flatMap((i) => Object.keys(i)))].sort();
  const fields = keys.map((k) => {
    const present = inputs.filter((i) => k in i);
    const optional = present.length < inputs.length ? '.optional()' : '';
    const name = /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
    return `${name}: ${zodOf(present.map((i) => i[k]))}${optional}`;
  });
  return `z.object({ ${fields.join(', ')} }).strict()`;
}

const KEY_FIELD = /(^|_)(id|key|ref|reference)$|(Id|Key|Ref|Reference)$/;

/** The field that names the business operation (R22): a string field every call sent whose name says id, key or reference. */
export function businessKeyOf(inputs: readonly Record<string, unknown>[]): string | undefined {
  if (inputs.length === 0) return undefined;
  const keys = Object.keys(inputs[0]!).filter(
    (k) => KEY_FIELD.test(k) && inputs.every((i) => typeof i[k] === 'string' && i[k] !== ''),
  );
  return keys.sort((a, b) => Number(/idempotency/i.test(a)) - Number(/idempotency/i.test(b)))[0];
}

export interface TracedTool {
  readonly name: string;
  readonly risk: Risk;
  readonly calls: readonly TracedCall[];
}

/** The effect a write tool records once per execution: what `duplicates` and the goal count. */
export const effectOf = (tool: string): string => `${tool}.done`;

function toolText(tool: TracedTool, traceId: string): string {
  const inputs = tool.calls.map((c) => c.input ?? {});
  const key = tool.risk === 'read' ? undefined : businessKeyOf(inputs);
  // The answers the trace recorded, by the input that got them: the stand-in reads what the agent read.
  const answers = tool.calls
    .filter((c) => c.result !== undefined)
    .map((c) => [canonicalJson(c.input ?? {}), c.result] as const);
  const calls = `${tool.calls.length} call${tool.calls.length === 1 ? '' : 's'}`;
  const keyExpression = key === undefined ? 'canonical(input)' : `input[${JSON.stringify(key)}]`;
  const effect =
    tool.risk === 'read'
      ? ''
      : `        ctx.effect(${JSON.stringify(effectOf(tool.name))}, { key: ${keyExpression} });\n`;
  return [
    `    ${JSON.stringify(tool.name)}: {`,
    `      description: ${JSON.stringify(`${tool.name}, as trace ${traceId} called it (${calls}).`)},`,
    `      risk: ${JSON.stringify(tool.risk)},`,
    `      input: ${inferredInput(inputs)},`,
    ...(key === undefined ? [] : [`      businessKey: ${JSON.stringify(key)},`]),
    `      run(input, ctx) {`,
    `${effect}        return answer(${JSON.stringify(answers)}, input);`,
    `      },`,
    `    },`,
  ].join('\n');
}

/**
 * A service module (`defineService`) declaring the tools a trace called: each input schema inferred
 * from the calls, a write's effect keyed by its business key (else the whole input), and the answers
 * the trace recorded given back for the same input (else `{ ok: true }`).
 */
export function serviceModuleText(service: string, tools: readonly TracedTool[], traceId: string): string {
  return [
    `// Written by faultline from-trace: the tools trace ${traceId} called. Edit freely: the schemas are`,
    `// inferred from the calls the trace holds, and a tool's risk (R4) from its name (a write unless it reads).`,
    `import { defineService, z } from 'faultline';`,
    '',
    `const sorted = (x) => Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));`,
    `const canonical = (v) => JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? sorted(x) : x));`,
    `const answer = (answers, input) => {`,
    `  const found = answers.find(([seen]) => seen === canonical(input)) ?? answers[0];`,
    `  return found === undefined ? { ok: true } : found[1];`,
    `};`,
    '',
    `export default defineService({`,
    `  name: ${JSON.stringify(service)},`,
    `  description: ${JSON.stringify(`The tools of trace ${traceId}, as faultline from-trace read them.`)},`,
    `  state: {},`,
    `  tools: {`,
    ...tools.map((t) => toolText(t, traceId)),
    `  },`,
    `});`,
    '',
  ].join('\n');
}
