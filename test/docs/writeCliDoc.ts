/**
 * Writes the generated part of docs/cli.md (every command's --help, from the commander
 * program) between its markers, leaving the hand-written text around it as it is.
 * `npm run docs:cli`; test/docs/docs.test.ts fails when the page and the program disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cliReference, generatedPart } from './cliHelp.js';

const file = fileURLToPath(new URL('../../docs/cli.md', import.meta.url));
const page = readFileSync(file, 'utf8');
const old = generatedPart(page);
if (old === undefined)
  throw new Error('docs/cli.md has no generated part: put the two marker lines of test/docs/cliHelp.ts where it goes');
writeFileSync(file, page.replace(old, cliReference()));
console.log('docs/cli.md: the help of every command written');
