/**
 * A node:test reporter that prints one closing line CI can read: `N passed, N failed`.
 * Counts tests, not suites; skipped and todo tests are reported separately when present.
 */
export default async function* summaryReporter(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const details = event.data.details ?? {};
    if (details.type === 'suite') {
      // A suite fails on its own only when a hook throws; count that as a failure.
      if (event.type === 'test:fail' && details.error?.failureType === 'hookFailed') failed++;
      continue;
    }
    if (event.data.skip || event.data.todo) skipped++;
    else if (event.type === 'test:pass') passed++;
    else failed++;
  }
  yield `\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
}
