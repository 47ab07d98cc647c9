/**
 * The package as a user gets it: packed from a copy of the sources (so `prepack` builds it
 * from scratch without touching the repository's own dist/, which other tests are running),
 * then installed from the tarball into a fresh project outside the repository, from the npm
 * cache (`npm ci` has put every dependency there). Shared by the smoke test and bench/package.ts.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The exact versions the repository tests with (from its own node_modules). */
export async function repoVersion(name: string): Promise<string> {
  return (JSON.parse(await readFile(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;
}

// npm passes its settings to scripts as npm_* variables; a child npm would read them as its own (the repository's prefix, say).
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_') && k !== 'INIT_CWD' && k !== 'CI'),
  );

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to the end without a shell; resolves with its exit code whatever it is. */
export function run(
  file: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      [...args],
      { cwd, env: { ...cleanEnv(), NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}

const must = async (ran: Promise<Ran>, what: string): Promise<Ran> => {
  const r = await ran;
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return r;
};

export interface Packed {
  readonly tarball: string;
  readonly files: readonly string[];
  readonly size: number;
  readonly unpackedSize: number;
  readonly cleanup: () => Promise<void>;
}

/** What `npm pack` needs from the repository to build the package: the sources, the build's scripts (yamlCache.mjs) and the shipped files. */
const PACK_INPUTS = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'README.md',
  'LICENSE',
  'bin',
  'docs',
  'scenarios',
  'scripts',
  'src',
];

/**
 * `npm pack` in `cwd` (its prepack cleans dist/ and builds it from scratch), the tarball written
 * into `destination`. `cleanup` removes `destination`.
 */
export async function npmPack(cwd: string, destination: string): Promise<Packed> {
  const r = await must(run('npm', ['pack', '--json', '--pack-destination', destination], cwd), 'npm pack');
  // npm prints the lifecycle scripts' output before the JSON.
  const info = (
    JSON.parse(r.stdout.slice(r.stdout.indexOf('[\n'))) as {
      filename: string;
      size: number;
      unpackedSize: number;
      files: { path: string }[];
    }[]
  )[0]!;
  return {
    tarball: join(destination, info.filename),
    files: info.files.map((f) => f.path).sort(),
    size: info.size,
    unpackedSize: info.unpackedSize,
    cleanup: () => rm(destination, { recursive: true, force: true }),
  };
}

/** `npm pack` in a copy of the sources, so the repository's own dist/ (which other tests are running) is left alone. */
export async function pack(): Promise<Packed> {
  const stage = await mkdtemp(join(tmpdir(), 'faultline-pack-'));
  for (const input of PACK_INPUTS) await cp(join(REPO, input), join(stage, input), { recursive: true });
  await symlink(join(REPO, 'node_modules'), join(stage, 'node_modules'), 'dir');
  return npmPack(stage, stage);
}

/** Every file `pack` copies, with the compiler that builds them: what the tarball is made from. */
async function packInputsHash(): Promise<string> {
  const hash = createHash('sha256');
  const add = async (path: string): Promise<void> => {
    if ((await stat(join(REPO, path))).isDirectory()) {
      for (const name of (await readdir(join(REPO, path))).sort()) await add(join(path, name));
      return;
    }
    hash
      .update(`${path}\0`)
      .update(await readFile(join(REPO, path)))
      .update('\0');
  };
  for (const input of PACK_INPUTS) await add(input);
  hash.update(`typescript ${await repoVersion('typescript')}`);
  return hash.digest('hex').slice(0, 16);
}

const PACK_CACHE = join(tmpdir(), 'faultline-pack-cache');
/** How long a cached tarball of other sources is kept (another checkout's run may still install it). */
const STALE_MS = 3_600_000;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Runs `make(staged)` once for `dir` across processes: the first to come makes it in a staging
 * folder under a lock file holding its pid, then renames it to `dir`, so it appears whole or not
 * at all; the others wait for it (or take over if the holder died).
 */
async function makeOnce(dir: string, make: (staged: string) => Promise<void>): Promise<void> {
  const lock = `${dir}.lock`;
  for (;;) {
    if (
      await stat(dir).then(
        () => true,
        () => false,
      )
    )
      return;
    const mine = await writeFile(lock, String(process.pid), { flag: 'wx' }).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
        return false;
      },
    );
    if (mine) break;
    const holder = Number(await readFile(lock, 'utf8').catch(() => '0'));
    // An empty lock is one being written this instant; a dead holder's lock is taken over.
    if (holder > 0 && !alive(holder)) await rm(lock, { force: true });
    else await new Promise((resolve) => setTimeout(resolve, 500));
  }
  try {
    // Made while we waited for the lock: another process finished between our look and our lock.
    if (
      await stat(dir).then(
        () => true,
        () => false,
      )
    )
      return;
    const staged = `${dir}.${process.pid}`;
    await rm(staged, { recursive: true, force: true });
    await mkdir(staged, { recursive: true });
    await make(staged);
    await rename(staged, dir);
  } finally {
    await rm(lock, { force: true });
  }
}

/**
 * `pack`, once per state of the sources: the test files that install the tarball (the package
 * tests, the real agents' acceptance) run in parallel forks and share one build, keyed by a
 * hash of everything `pack` copies (see `makeOnce`). `cleanup` leaves the shared tarball;
 * tarballs of older sources are removed after an hour. `make` is what packs on a miss:
 * `npm test`'s build step passes one that packs the checkout itself (test/package/packRepository.ts),
 * so a suite run after it finds the tarball here and packs nothing.
 */
export async function packOnce(make: () => Promise<Packed> = pack): Promise<Packed> {
  const dir = join(PACK_CACHE, await packInputsHash());
  await mkdir(PACK_CACHE, { recursive: true });
  await makeOnce(dir, async (staged) => {
    for (const name of await readdir(PACK_CACHE)) {
      const other = join(PACK_CACHE, name);
      if (other !== dir && !other.startsWith(`${dir}.`) && Date.now() - (await stat(other)).mtimeMs > STALE_MS)
        await rm(other, { recursive: true, force: true });
    }
    const fresh = await make();
    const name = basename(fresh.tarball);
    await cp(fresh.tarball, join(staged, name));
    await fresh.cleanup();
    const info = { tarball: join(dir, name), files: fresh.files, size: fresh.size, unpackedSize: fresh.unpackedSize };
    await writeFile(join(staged, 'packed.json'), JSON.stringify(info));
  });
  return {
    ...(JSON.parse(await readFile(join(dir, 'packed.json'), 'utf8')) as Omit<Packed, 'cleanup'>),
    cleanup: async () => {},
  };
}

export interface Consumer {
  readonly dir: string;
  /** Adds packages to the project, from the npm cache. */
  install(specs: readonly string[]): Promise<Ran>;
  /** Runs the project's `npx <bin> …`, as a user types it. */
  npx(args: readonly string[]): Promise<Ran>;
  /**
   * Runs `node_modules/.bin/<bin> …`, the installed binary `npx` would run, without npm's own
   * start (0.4 s of CPU each): for the variations, once a test has gone through `npx`.
   */
  bin(args: readonly string[]): Promise<Ran>;
  write(path: string, text: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** A fresh ES-module project under the OS temp folder, with nothing installed. */
export async function createConsumer(): Promise<Consumer> {
  const dir = await mkdtemp(join(tmpdir(), 'faultline-consumer-'));
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  const write = async (path: string, text: string): Promise<void> => {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  };
  return {
    dir,
    install: (specs) =>
      must(
        run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-exact', ...specs], dir),
        `npm install ${specs.join(' ')}`,
      ),
    npx: (args) => run('npx', ['--no-install', ...args], dir),
    bin: ([name, ...args]) => run(join(dir, 'node_modules', '.bin', name!), args, dir),
    write,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * A fresh project like `createConsumer`'s with `specs` installed, the install made once per
 * tarball and set of packages (beside the tarball, see `makeOnce`) and shared by the test files
 * that need the same one: each gets its own project folder, whose node_modules is a copy of
 * hard links to the shared install's (the files are only read; what a test writes is its own).
 */
export async function installedConsumer(packed: Packed, specs: readonly string[]): Promise<Consumer> {
  const key = createHash('sha256').update(specs.join('\0')).digest('hex').slice(0, 12);
  const template = join(packed.tarball, '..', `consumer-${key}`);
  await makeOnce(template, async (staged) => {
    await writeFile(
      join(staged, 'package.json'),
      `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
    );
    await must(
      run(
        'npm',
        ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-exact', packed.tarball, ...specs],
        staged,
      ),
      `npm install ${specs.join(' ')}`,
    );
  });
  const project = await createConsumer();
  await cp(join(template, 'package.json'), join(project.dir, 'package.json'));
  await cp(join(template, 'package-lock.json'), join(project.dir, 'package-lock.json'));
  // Hard links where `cp -al` exists (GNU cp); a plain copy elsewhere.
  const linked = await run(
    'cp',
    ['-al', join(template, 'node_modules'), join(project.dir, 'node_modules')],
    project.dir,
  ).catch(() => ({ code: 1 }));
  if (linked.code !== 0) {
    await rm(join(project.dir, 'node_modules'), { recursive: true, force: true });
    await cp(join(template, 'node_modules'), join(project.dir, 'node_modules'), {
      recursive: true,
      verbatimSymlinks: true,
    });
  }
  return project;
}
