// Types of scripts/importCycles.mjs, for the test that imports it (test/build/importCycles.test.ts).
import type ts from 'typescript';

export function importGraph(program: ts.Program): Map<string, string[]>;
export function importCycles(program: ts.Program, dir: string): string[][];
