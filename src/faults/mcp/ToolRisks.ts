import type { Risk } from '../../core/index.js';
import type { Response } from './jsonRpc.js';

/**
 * Each tool's risk (R4) as the proxy knows it: the plan's own, which no annotation overrides, else what the
 * server's `tools/list` annotations say. A client that cached its list makes the proxy ask the server itself.
 */
export class ToolRisks {
  /** The plan's own risks. */
  readonly #named: ReadonlyMap<string, Risk>;
  /** What the listings seen so far say. */
  readonly #listed = new Map<string, Risk>();
  /** The proxy's own `tools/list`, asked once when a call names a tool no listing has shown. */
  #ownListing: Promise<void> | undefined;

  constructor(named: Readonly<Record<string, Risk>> | undefined) {
    this.#named = new Map(Object.entries(named ?? {}));
  }

  /**
   * MCP's tool annotations say what our risk axis says (R4): `readOnlyHint` a read; a tool that
   * is `idempotentHint`, or that `destructiveHint: false` marks additive and `idempotentHint`
   * marks repeatable, an idempotent write; anything else (the spec's defaults) a write.
   */
  learn(answer: Response): void {
    const tools = (answer.result?.['tools'] ?? []) as {
      name?: unknown;
      annotations?: { readOnlyHint?: unknown; idempotentHint?: unknown };
    }[];
    if (!Array.isArray(tools)) return;
    for (const t of tools) {
      if (typeof t?.name !== 'string') continue;
      const a = t.annotations ?? {};
      this.#listed.set(
        t.name,
        a.readOnlyHint === true ? 'read' : a.idempotentHint === true ? 'idempotent-write' : 'write',
      );
    }
  }

  /** A tool's risk: the plan's, else its annotations, asking `listTools` once if no listing has shown it. */
  async of(tool: string, listTools: () => Promise<void>): Promise<Risk> {
    const named = this.#named.get(tool);
    if (named !== undefined) return named;
    if (!this.#listed.has(tool)) {
      this.#ownListing ??= listTools();
      await this.#ownListing;
    }
    return this.#listed.get(tool) ?? 'write';
  }
}
