// .ci/run's closing line, `N passed, N failed, N skipped`, counted test case by test case from
// vitest's JUnit report, and its verdict. Under CI nothing may skip: every component a test needs
// is installed by .ci/run, so a skipped test means a setup failed or a hook gave up (vitest
// marks the tests of a suite whose beforeAll failed as skipped) and that test proved nothing.
// Each is listed by name and counted as failed, and the run fails.
// Usage: node scripts/ciSummary.mjs REPORT STATUS   (STATUS: the exit code of the checks and suite)
// Exit code: 0 when STATUS was 0, nothing failed and (under CI) nothing skipped; else 1.
import { existsSync, readFileSync } from 'node:fs';

const [report = 'reports/vitest-junit.xml', statusArg = '0'] = process.argv.slice(2);
const status = Number(statusArg);
const ci = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';

const unescape = (s) =>
  s.replace(/&(lt|gt|quot|apos|amp);/g, (_, e) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]);
const attr = (tag, name) => unescape(tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1] ?? '');

/** Every test case of the report: its name (file > suite > test) and how it ended. */
function testCases(xml) {
  const cases = [];
  for (const m of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const body = m[3] ?? '';
    const state = /<(failure|error)\b/.test(body) ? 'failed' : /<skipped\b/.test(body) ? 'skipped' : 'passed';
    cases.push({ name: `${attr(m[1], 'classname')} > ${attr(m[1], 'name')}`, state });
  }
  return cases;
}

// A run that never reached vitest (the checks failed) has no report: 0 passed.
const cases = existsSync(report) ? testCases(readFileSync(report, 'utf8')) : [];
const count = (state) => cases.filter((c) => c.state === state).length;
const passed = count('passed');
const skipped = cases.filter((c) => c.state === 'skipped');
let failed = count('failed');
if (ci && skipped.length > 0) {
  console.log(
    `ci: ${skipped.length} test(s) skipped under CI, each counted as failed (CI installs everything the tests need, so a skip means a setup or a hook failed; see above):`,
  );
  for (const c of skipped) console.log(`  skipped: ${c.name}`);
  failed += skipped.length;
}
// The checks or vitest itself failed without a failing test case (a type error, a crash).
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed, ${skipped.length} skipped`);
process.exit(status !== 0 || failed > 0 ? 1 : 0);
