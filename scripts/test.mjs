#!/usr/bin/env node
/**
 * Runs the test suite with node:test + tsx (Node 20's --test does not expand globs).
 *   npm test                      every *.test.ts under test/
 *   npm test -- test/unit/store   only files under the given paths
 * TEST_CONCURRENCY sets how many test files run at once (default 2).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(path, out) {
  const st = statSync(path);
  if (st.isDirectory()) {
    for (const entry of readdirSync(path).sort()) collect(join(path, entry), out);
  } else if (path.endsWith('.test.ts')) {
    out.push(path);
  }
  return out;
}

const roots = process.argv.slice(2);
const files = (roots.length ? roots : ['test']).flatMap((root) => collect(root, []));
if (files.length === 0) {
  console.error(`no *.test.ts files under ${roots.join(', ') || 'test'}`);
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--no-warnings=ExperimentalWarning',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./test/support/summary-reporter.mjs',
    '--test-reporter-destination=stdout',
    ...files,
  ],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'SILENT',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  },
);
process.exit(result.status ?? 1);
