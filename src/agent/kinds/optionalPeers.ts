import { readFile } from 'node:fs/promises';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import type { ExecutionConfig } from '../../runtime/executionConfig.js';
import type { Scenario } from '../../scenario/scenario.js';

/** The optional peers a run may load, each only when a scenario or configuration uses it. */
export const OPTIONAL_PEERS = ['msw', 'nock', 'cockatiel', 'p-retry'] as const;
export type OptionalPeer = (typeof OPTIONAL_PEERS)[number];

/** One peer a run will load, and what in the run needs it. */
export interface PeerNeed {
  readonly peer: OptionalPeer;
  /** `scenario "x" (an http agent, intercepted by msw)`, `configuration "cockatiel-decorrelated"`. */
  readonly by: string;
}

/** Every optional peer the trials of these scenarios under these configurations will import. */
export function peersNeeded(scenarios: readonly Scenario[], configs: readonly ExecutionConfig[]): PeerNeed[] {
  const needs: PeerNeed[] = [];
  for (const s of scenarios) {
    if (s.agent.kind !== 'http') continue;
    const adapter = s.http?.adapter ?? 'msw';
    needs.push({
      peer: adapter,
      by:
        `scenario "${s.name}" (an http agent, intercepted by ` +
        `${adapter}${adapter === 'msw' ? '; http.adapter: nock uses nock instead' : ''})`,
    });
  }
  for (const c of configs)
    if (c.kind === 'cockatiel' || c.kind === 'p-retry')
      needs.push({ peer: c.kind, by: `configuration "${c.name}" (kind: ${c.kind})` });
  return needs;
}

/** Whether `peer` resolves from faultline's own modules, as the trial's import of it would. */
async function installed(peer: OptionalPeer): Promise<boolean> {
  // Resolving does not run the package; a runner without import.meta.resolve imports it instead.
  if (typeof import.meta.resolve === 'function') {
    try {
      import.meta.resolve(peer);
      return true;
    } catch {
      return false;
    }
  }
  return import(peer).then(
    () => true,
    (error: { code?: string }) => error.code !== 'ERR_MODULE_NOT_FOUND',
  );
}

/** The version range faultline declares for each peer (`^2.15.0`), from its package.json. */
async function peerRanges(): Promise<Record<string, string>> {
  // dist/agent/kinds/ and src/agent/kinds/ both sit three folders below the package root.
  const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    peerDependencies?: Record<string, string>;
  };
  return pkg.peerDependencies ?? {};
}

/** The exact version to install, from a `^x.y.z`/`~x.y.z`/`x.y.z` range; the bare name for anything else. */
const pinned = (peer: string, range: string | undefined): string => {
  const version = /^[\^~]?(\d+\.\d+\.\d+)$/.exec(range?.trim() ?? '')?.[1];
  return version === undefined ? peer : `${peer}@${version}`;
};

/**
 * Refuses (exit 2), before the first trial, a run that needs an optional peer that is not
 * installed: which scenario or configuration needs which package, and the command that installs it.
 */
export async function assertPeersInstalled(
  scenarios: readonly Scenario[],
  configs: readonly ExecutionConfig[],
): Promise<void> {
  const needs = peersNeeded(scenarios, configs);
  if (needs.length === 0) return;
  const missing: PeerNeed[] = [];
  const checked = new Map<OptionalPeer, boolean>();
  for (const need of needs) {
    if (!checked.has(need.peer)) checked.set(need.peer, await installed(need.peer));
    if (checked.get(need.peer) === false) missing.push(need);
  }
  if (missing.length === 0) return;
  const ranges = await peerRanges();
  const peers = [...new Set(missing.map((m) => m.peer))];
  const lines = missing.map((m) => `  - ${m.by} needs ${m.peer}`);
  throw new FaultlineError(
    FaultlineErrorCode.Usage,
    `${peers.length === 1 ? `the optional peer ${peers[0]} is` : `the optional peers ${peers.join(', ')} are`} not ` +
      `installed, and this run needs ${peers.length === 1 ? 'it' : 'them'}:\n${lines.join('\n')}\ninstall ` +
      `with: npm i -D -E ${peers.map((p) => pinned(p, ranges[p])).join(' ')}`,
  );
}
