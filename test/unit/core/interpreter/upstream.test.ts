/**
 * Karmada's own `InterpretComponent` test cases for its third-party customizations (copied into
 * `testdata/`), compared as Karmada's `thirdparty_test.go` compares them: quantities by amount
 * (`equality.Semantic`), components in the order produced.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';

import { parseAllDocuments } from 'yaml';

import { interpretComponents } from '../../../../lib/core/interpreter/index.ts';
import { isQuantityError, parseQuantity, scaledValue } from '../../../../lib/api/quantity.ts';
import type { KubeObject } from '../../../../lib/core/model/types.ts';

const TESTDATA = new URL('./testdata/', import.meta.url);

interface Case {
  name: string;
  observedObj?: KubeObject;
  desiredObj?: KubeObject;
  output: { components: unknown[] };
}

/** Every resource-request quantity replaced by its exact amount in nano-units. */
function byAmount(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => byAmount(v));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (key === 'resourceRequest') {
      const q = parseQuantity(v as string | number);
      assert.ok(!isQuantityError(q), `${k}: ${String(v)} is a quantity`);
      out[k] = scaledValue(q, -9).toString();
    } else {
      out[k] = byAmount(v, k);
    }
  }
  return out;
}

for (const file of readdirSync(TESTDATA)
  .filter((f) => f.endsWith('.yaml'))
  .sort()) {
  describe(`upstream testdata ${file}`, () => {
    const cases = parseAllDocuments(readFileSync(new URL(file, TESTDATA), 'utf8')).map((d) => d.toJS() as Case);
    for (const c of cases) {
      it(c.name, () => {
        const template = c.observedObj ?? c.desiredObj;
        assert.ok(template);
        assert.deepEqual(byAmount(interpretComponents(template)), byAmount(c.output.components));
      });
    }
  });
}
