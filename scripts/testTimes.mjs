// Prints the slowest test files of a vitest JSON report, as docs/testing.md's table:
//   npx vitest run --reporter=json --outputFile=/tmp/vitest.json
//   node scripts/testTimes.mjs /tmp/vitest.json [count]
// A file's time is its wall time in its fork (vitest's startTime to endTime), what limits the
// suite's wall time; its slowest test is named beside it.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, count = '20'] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: node scripts/testTimes.mjs <vitest JSON report> [count]\n');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const rows = report.testResults
  .map((f) => {
    const slowest = f.assertionResults.reduce((a, t) => ((t.duration ?? 0) > (a?.duration ?? -1) ? t : a), undefined);
    return {
      name: relative(process.cwd(), f.name),
      seconds: (f.endTime - f.startTime) / 1000,
      tests: f.assertionResults.length,
      status: f.status,
      slowest,
    };
  })
  .sort((a, b) => b.seconds - a.seconds);
const total = rows.reduce((s, r) => s + r.seconds, 0);
const wall = (Math.max(...report.testResults.map((f) => f.endTime)) - report.startTime) / 1000;
const s = (n) => n.toFixed(1);
console.log(
  `${rows.length} files, ${report.numTotalTests} tests (${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + (report.numTodoTests ?? 0)} skipped); ${s(wall)} s wall, ${s(total)} s summed over files`,
);
console.log('');
console.log('| # | file | s | tests | slowest test (s) |');
console.log('|---|---|---:|---:|---|');
rows.slice(0, Number(count)).forEach((r, i) => {
  const slow =
    r.slowest === undefined
      ? ''
      : `${r.slowest.title.length > 60 ? `${r.slowest.title.slice(0, 57)}...` : r.slowest.title} (${s((r.slowest.duration ?? 0) / 1000)})`;
  console.log(
    `| ${i + 1} | ${r.name}${r.status === 'passed' ? '' : ` (${r.status})`} | ${s(r.seconds)} | ${r.tests} | ${slow.replaceAll('|', '\\|')} |`,
  );
});
