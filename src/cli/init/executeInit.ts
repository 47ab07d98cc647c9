import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import { dirname, join } from 'node:path';
import { ExitCode } from '../exitCodes.js';
import type { Io } from '../io.js';
import { AGENT, CONFIG, SCENARIO, SCRIPT, SERVICE, WORKFLOW } from './templates.js';

/** The files `init` writes, relative to the project folder. */
export const INIT_FILES: readonly { readonly path: string; readonly text: string }[] = [
  { path: 'faultline.config.ts', text: CONFIG },
  { path: 'faultline/services/helpdesk.service.ts', text: SERVICE },
  { path: 'faultline/agents/open-ticket.agent.ts', text: AGENT },
  { path: 'faultline/scenarios/helpdesk-partial-write.scenario.ts', text: SCENARIO },
  { path: '.github/workflows/faultline.yml', text: WORKFLOW },
];

type Step = { readonly kind: 'created' | 'skipped' | 'added'; readonly what: string; readonly why?: string };

async function writeNew(dir: string, path: string, text: string): Promise<Step> {
  const file = join(dir, path);
  try {
    await mkdir(dirname(file), { recursive: true });
    // 'wx' fails if the file exists, so nothing is ever overwritten, even by a race.
    await writeFile(file, text, { flag: 'wx' });
    return { kind: 'created', what: path };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && (await stat(file).catch(() => undefined))?.isFile()) return { kind: 'skipped', what: path, why: 'it exists' };
    if (typeof code !== 'string') throw error;
    throw new FaultlineError(FaultlineErrorCode.Usage, `--dir ${dir}: cannot write ${path} (${code === 'ENOTDIR' || code === 'EEXIST' ? 'a part of the path is a file' : code})`);
  }
}

async function addScript(dir: string): Promise<Step> {
  const file = join(dir, 'package.json');
  const what = `package.json script "${SCRIPT.name}": "${SCRIPT.command}"`;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { kind: 'skipped', what, why: 'there is no package.json here (npm init -y, then run init again)' };
  }
  let pkg: { scripts?: Record<string, string> };
  try {
    pkg = JSON.parse(text) as typeof pkg;
  } catch (error) {
    return { kind: 'skipped', what, why: `package.json is not valid JSON (${(error as Error).message})` };
  }
  if (pkg.scripts?.[SCRIPT.name] !== undefined) return { kind: 'skipped', what, why: `package.json already has a "${SCRIPT.name}" script` };
  pkg.scripts = { ...pkg.scripts, [SCRIPT.name]: SCRIPT.command };
  // Keep the file's own indentation, so the diff is the one added line.
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  await writeFile(file, `${JSON.stringify(pkg, null, indent)}\n`);
  return { kind: 'added', what };
}

/** `faultline init`: writes what is missing, never overwrites, and says what it did and skipped. */
export async function executeInit(dir: string, io: Io): Promise<ExitCode> {
  // An empty --dir would resolve to the working folder: refuse it rather than write there unasked.
  if (dir.trim() === '') throw new FaultlineError(FaultlineErrorCode.Usage, '--dir: expected a folder path, got an empty string');
  const info = await stat(dir).catch(() => undefined);
  if (info !== undefined && !info.isDirectory()) throw new FaultlineError(FaultlineErrorCode.Usage, `--dir ${dir}: expected a folder, but ${dir} is ${info.isFile() ? 'a file' : 'not a folder'}`);
  const steps: Step[] = [];
  for (const { path, text } of INIT_FILES) steps.push(await writeNew(dir, path, text));
  steps.push(await addScript(dir));
  const width = Math.max(...steps.map((s) => s.kind.length));
  const lines = steps.map((s) => `  ${s.kind.padEnd(width)}  ${s.what}${s.why === undefined ? '' : ` (${s.why})`}`);
  const skipped = steps.filter((s) => s.kind === 'skipped').length;
  io.stdout.write(
    [
      'faultline init',
      ...lines,
      '',
      skipped === 0 ? 'next: npx faultline run   (the example scenario under the rulebook configuration)' : `${skipped} skipped: nothing was overwritten. next: npx faultline run`,
      '      npx faultline run --config naive   (the same scenario under a careless retry policy: it fails, with the evidence)',
      '',
    ].join('\n'),
  );
  return ExitCode.Ok;
}
