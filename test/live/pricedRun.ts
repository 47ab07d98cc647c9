import { trialFlags } from '../cli/trialFlags.js';

/** A project config that prices the house model at $0.20 per million input tokens (a 1M-token answer: $0.20). */
export const PRICED_CONFIG = "export default { prices: { 'house-llm': { input: 0.2, output: 1 } } };\n";

/** `run priced.yaml --live` stopped at --max-cost 1: k trials on these workers and connections, the reports in out/. */
export const pricedRunArgs = (k: number, workers: number, connections: number): string[] => [
  'run',
  'priced.yaml',
  '--live',
  '--workers',
  String(workers),
  '--max-connections',
  String(connections),
  '--max-cost',
  '1',
  ...trialFlags({ k, out: 'out' }),
];
