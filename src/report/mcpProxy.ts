import type { McpProxyRecord, ProxiedCall } from '../faults/mcp/ProxiedCall.js';
import type { Risk } from '../core/kinds.js';
import type { FaultPlan } from '../faults/plan.js';
import type { CheckResult } from '../checks/index.js';

/** What `faultline mcp-proxy` writes when it exits: the plan, every `tools/call`, and the history. */
export interface McpProxyReport extends McpProxyRecord {
  readonly kind: 'faultline-mcp-proxy';
  readonly server: readonly string[];
  readonly seed: number;
  readonly plan: FaultPlan;
  /** The tools' risks the plan named (they win over the server's annotations). */
  readonly risks?: Readonly<Record<string, Risk>>;
  /** The checkers' verdicts on what crossed the proxy: duplicates, unknown outcomes, Retry-After. */
  readonly checks: readonly CheckResult[];
}

const SAW: Record<ProxiedCall['clientSaw'], string> = {
  result: 'its result',
  tool_error: 'a tool error (isError: true)',
  protocol_error: 'a JSON-RPC error',
  nothing: 'no answer',
};

/** One line per call: what was injected, whether the server acted, what the client was shown. */
export function mcpProxyLines(report: McpProxyReport): string[] {
  const unknown = report.calls.filter((c) => c.outcome === 'unknown').length;
  const faulted = report.calls.filter((c) => c.fault).length;
  return [
    `faultline mcp-proxy: ${report.calls.length} tools/call through ${report.server.join(' ')}, ${faulted} faulted, ${unknown} unknown`,
    ...report.calls.map((c) => {
      const fault = c.fault ? `${c.fault.kind} (rule ${c.fault.rule})` : 'no fault';
      const reached =
        c.deliveries === 0
          ? 'never reached the server'
          : `reached the server ${c.deliveries === 1 ? 'once' : `${c.deliveries} times`}`;
      const outcome =
        c.outcome === 'unknown' ? 'unknown: the server may have acted and the client cannot tell' : c.outcome;
      return `  ${c.call} ${c.tool}: ${fault}; ${reached}; the client saw ${SAW[c.clientSaw]}; outcome ${outcome}`;
    }),
    'verdicts',
    ...report.checks.map((c) =>
      c.verdict.valid === true
        ? `  ✓ ${c.name}`
        : c.verdict.valid === false
          ? `  ✗ ${c.name}: ${c.verdict.message}`
          : `  ? ${c.name}: ${c.verdict.message}`,
    ),
  ];
}
