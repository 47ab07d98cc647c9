import type { start } from './faultline.js';

/** The served addresses (`FAULTLINE_*_URL=…` lines), once `faultline serve` has printed them. */
export function servedAddresses(child: ReturnType<typeof start>['child']): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const vars = Object.fromEntries([...out.matchAll(/^ {2}([A-Z_]+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
      if (vars['FAULTLINE_END_URL'] !== undefined) resolve(vars);
    });
    child.once('close', () => reject(new Error(`faultline serve ended before printing its addresses:\n${out}`)));
  });
}
