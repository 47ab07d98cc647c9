import { randomBytes } from 'node:crypto';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { trackTempFile, untrackTempFile } from '../report/tempFiles.js';

const usage = (message: string): FaultlineError => new FaultlineError(FaultlineErrorCode.Usage, message);

const kindOf = (info: Awaited<ReturnType<typeof stat>>): string =>
  info.isFile()
    ? 'a file'
    : info.isCharacterDevice() || info.isBlockDevice()
      ? 'a device'
      : info.isFIFO()
        ? 'a pipe'
        : info.isSocket()
          ? 'a socket'
          : 'not a folder';

const errnoOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? String(error);

/**
 * Checks, before the first trial, that the reports can be written into `dir` (named by
 * `flag`): it is a folder or can be made one, and a file can be created in it. Finding out
 * after the whole run would lose every trial's result.
 */
export async function assertWritableFolder(dir: string, flag: string): Promise<void> {
  if (dir.trim() === '') throw usage(`${flag}: expected a folder path, got an empty string`);
  await folderWritable(dir, `${flag} ${dir}`);
}

async function folderWritable(dir: string, label: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info !== undefined && !info.isDirectory())
    throw usage(`${label}: expected a folder, but ${dir} is ${kindOf(info)}`);
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    const code = errnoOf(error);
    throw usage(
      `${label}: cannot create the folder ${dir} (${code === 'ENOTDIR' || code === 'EEXIST' ? 'a part of the path is a file' : code})`,
    );
  }
  // Permission bits do not tell the whole story (root, read-only mounts, ACLs): try a file.
  const probe = join(dir, `.faultline-probe.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  trackTempFile(probe);
  try {
    await (await open(probe, 'wx')).close();
  } catch (error) {
    throw usage(`${label}: cannot write into the folder ${dir} (${errnoOf(error)})`);
  } finally {
    await rm(probe, { force: true });
    untrackTempFile(probe);
  }
}

/**
 * Checks that `file` (named by `flag`) can be written as a whole file: not a folder, not a
 * device (an atomic write would rename over `/dev/null`), and its folder writable.
 */
export async function assertWritableFile(file: string, flag: string): Promise<void> {
  if (file.trim() === '') throw usage(`${flag}: expected a file path, got an empty string`);
  const label = `${flag} ${file}`;
  const info = await stat(file).catch(() => undefined);
  if (info?.isDirectory()) throw usage(`${label}: expected a file, but it is a folder`);
  if (info !== undefined && !info.isFile()) throw usage(`${label}: expected a regular file, but it is ${kindOf(info)}`);
  await folderWritable(dirname(file), label);
}

/**
 * Checks that the step summary (`GITHUB_STEP_SUMMARY`, appended to after the run) can be
 * appended to: not a folder, and openable for appending (which creates it, as the runner would).
 */
export async function assertAppendable(file: string, name: string): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  if (info?.isDirectory())
    throw usage(`${name}=${file}: expected a file to append the Markdown summary to, but it is a folder`);
  try {
    await (await open(file, 'a')).close();
  } catch (error) {
    throw usage(`${name}=${file}: cannot append the Markdown summary to it (${errnoOf(error)})`);
  }
}
