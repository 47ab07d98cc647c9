// `npm test`'s type check and type-aware lint over ONE TypeScript program. Run apart, `tsc
// --noEmit -p .` and `eslint .` each built a program over the same files from the same
// tsconfig.json (eslint's through its project service, the costlier way): 24 s and 58 s of CPU on
// this 2-core machine, 47 s together here (docs/testing.md, seventh round). The checks are the
// same: tsc's diagnostics for tsconfig.json (as `npm run typecheck` prints them), then every
// file `eslint .` lints, under eslint.config.js, whose typed rules read this program. A .ts file
// eslint lints that tsconfig.json leaves out fails the lint (typescript-eslint refuses a file no
// program holds), as it would under the project service. Exit 1 when either finds anything.
// `npm run typecheck` and `npm run lint` still run each alone. The import-cycle check of src/
// (`npm run cycles`, madge) is made here too, over the same program (scripts/importCycles.mjs).
import { relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { importCycles } from './importCycles.mjs';

const CONFIG = 'tsconfig.json';

function program() {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    CONFIG,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (parsed === undefined) throw new Error(`${CONFIG}: cannot be read`);
  return ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: parsed.errors,
  });
}

const HOST = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: ts.sys.getCurrentDirectory,
  getNewLine: () => ts.sys.newLine,
};

const made = program();
// What `tsc --noEmit` reports: the config's, the options', the global, syntactic and semantic diagnostics.
const diagnostics = ts.getPreEmitDiagnostics(made);
if (diagnostics.length > 0) {
  process.stdout.write(ts.formatDiagnostics(diagnostics, HOST));
  process.stdout.write(`\ntype check (${CONFIG}): ${diagnostics.length} error(s)\n`);
}

// What `madge --circular … src` fails on: a cycle of imports through a file under src/.
const cycles = importCycles(made, resolve('src'));
if (cycles.length > 0) {
  process.stdout.write(`import cycles through src/ (${cycles.length}):\n`);
  for (const cycle of cycles) process.stdout.write(`  ${cycle.map((f) => relative('.', f)).join(' > ')}\n`);
}

const eslint = new ESLint({
  overrideConfig: [
    { files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false, programs: [made] } } },
  ],
});
const results = await eslint.lintFiles(['.']);
const problems = results.reduce((n, r) => n + r.errorCount, 0);
process.stdout.write(await (await eslint.loadFormatter('stylish')).format(results));
console.log(
  `type check: ${diagnostics.length === 0 ? 'clean' : 'FAILED'} (${made.getRootFileNames().length} files); import cycles: ${cycles.length === 0 ? 'none' : 'FAILED'}; lint: ${problems === 0 ? 'clean' : 'FAILED'} (${results.length} files)`,
);
process.exitCode = diagnostics.length > 0 || cycles.length > 0 || problems > 0 ? 1 : 0;
