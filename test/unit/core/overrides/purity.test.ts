/**
 * The override engine belongs to the pure core (docs/core.md: no I/O, no clock, no randomness): nothing it
 * reaches imports AWS, Kubernetes clients, the file system or the network, or reads the clock.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g;
const FORBIDDEN_MODULE =
  /^(@aws-sdk\/|@aws-lambda-powertools\/|@kubernetes\/|aws-cdk|node:(fs|net|http|https|http2|child_process|dgram|tls|worker_threads))/;
const IMPURE = /\bDate\.now\(|\bnew Date\(\)|\bMath\.random\(|\bprocess\.env\b|\bsetTimeout\(|\bperformance\.now\(/;

describe('lib/core/overrides purity', () => {
  it('reaches no I/O module and reads no clock or randomness', () => {
    const seen = new Map<string, string>();
    const stack = [resolve('lib/core/overrides/index.ts')];
    while (stack.length) {
      const file = stack.pop()!;
      if (seen.has(file)) continue;
      const text = readFileSync(file, 'utf8');
      seen.set(file, text);
      for (const m of text.matchAll(IMPORT)) {
        const spec = m[1]!;
        if (spec.startsWith('.')) stack.push(resolve(dirname(file), spec));
        else seen.set(`module:${spec}`, '');
      }
    }
    const modules = [...seen.keys()].filter((k) => k.startsWith('module:')).map((k) => k.slice(7));
    assert.deepEqual(
      modules.filter((m) => FORBIDDEN_MODULE.test(m)),
      [],
    );
    assert.deepEqual(
      [...seen].filter(([f, text]) => !f.startsWith('module:') && IMPURE.test(text)).map(([f]) => f),
      [],
    );
  });
});
