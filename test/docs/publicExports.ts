/**
 * The names each public entry (`src/public/*.ts`) exports, read with the TypeScript compiler
 * as a consumer's compiler sees them: `export *` followed, each name sorted into a value
 * (something to call or read at run time) or a type only.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const PUBLIC = fileURLToPath(new URL('../../src/public/', import.meta.url));

export interface EntryExports {
  /** `faultline`, `faultline/report`, … */
  readonly entry: string;
  readonly values: readonly string[];
  readonly types: readonly string[];
}

/** Every public entry file: each one is a package subpath (`index` is the main entry). */
export const publicFiles = (): string[] =>
  readdirSync(PUBLIC)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort();

export function publicExports(): EntryExports[] {
  const files = publicFiles().map((f) => join(PUBLIC, f));
  const config = ts.getParsedCommandLineOfConfigFile(
    fileURLToPath(new URL('../../tsconfig.json', import.meta.url)),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  const program = ts.createProgram(files, { ...(config?.options ?? {}), noEmit: true });
  const checker = program.getTypeChecker();
  return files.map((file) => {
    const source = program.getSourceFile(file);
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`${file}: not a module`);
    const values: string[] = [];
    const types: string[] = [];
    for (const exported of checker.getExportsOfModule(symbol)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      // `export type { X }` of a class is a type only: the alias says so even when its target is a value.
      const typeOnly =
        exported.declarations?.some(
          (d) =>
            ts.isTypeOnlyExportDeclaration(d) ||
            (ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly)),
        ) ?? false;
      (target.flags & ts.SymbolFlags.Value && !typeOnly ? values : types).push(exported.name);
    }
    const base = file.slice(PUBLIC.length, -'.ts'.length);
    return { entry: base === 'index' ? 'faultline' : `faultline/${base}`, values: values.sort(), types: types.sort() };
  });
}
