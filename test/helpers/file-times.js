// A node:test reporter of where the suite's time goes, per test file: each file's top-level
// tests' durations added up, slowest first, as a markdown table (npm run test:times writes it to
// test-times.md; docs/contributing.md holds one run's).
export default async function * fileTimes(source) {
  const files = new Map(); // file -> { ms, tests, failed }
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0) continue;
    const file = event.data.file?.replace(`${process.cwd()}/`, '') ?? '(unknown)';
    const entry = files.get(file) ?? { ms: 0, tests: 0, failed: 0 };
    entry.ms += event.data.details?.duration_ms ?? 0;
    entry.tests += 1;
    if (event.type === 'test:fail') entry.failed += 1;
    files.set(file, entry);
  }
  const rows = [...files].sort(([, a], [, b]) => b.ms - a.ms);
  const total = rows.reduce((sum, [, entry]) => sum + entry.ms, 0);
  yield '| test file | seconds | share | tests |\n| --- | --- | --- | --- |\n';
  for (const [file, { ms, tests, failed }] of rows) {
    const share = total ? `${((100 * ms) / total).toFixed(1)}%` : '-';
    yield `| ${file} | ${(ms / 1000).toFixed(1)} | ${share} | ${tests}${failed ? ` (${failed} failed)` : ''} |\n`;
  }
  const tests = rows.reduce((sum, [, entry]) => sum + entry.tests, 0);
  yield `| all ${rows.length} files | ${(total / 1000).toFixed(1)} | 100% | ${tests} |\n`;
}
