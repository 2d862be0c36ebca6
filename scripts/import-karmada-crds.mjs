#!/usr/bin/env node
/**
 * Regenerates lib/karmada/crds.generated.json from Karmada's CRD manifests (v1.15), keeping what the
 * API needs (names, scope, versions, schemas, printer columns, subresources) and dropping the prose
 * descriptions, so function bundles stay small.
 *   node scripts/import-karmada-crds.mjs <dir with Karmada CRD YAML files>
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/import-karmada-crds.mjs <dir with Karmada CRD YAML files>');
  process.exit(2);
}

function strip(value) {
  if (Array.isArray(value)) return value.map(strip);
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'description') out[k] = strip(v);
    return out;
  }
  return value;
}

const crds = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => {
    const crd = parse(readFileSync(join(dir, f), 'utf8'));
    return { apiVersion: crd.apiVersion, kind: crd.kind, metadata: { name: crd.metadata.name }, spec: strip(crd.spec) };
  });
const out = new URL('../lib/karmada/crds.generated.json', import.meta.url);
writeFileSync(out, `${JSON.stringify({ source: 'Karmada v1.15 CRDs (Apache-2.0, The Karmada Authors)', crds })}\n`);
console.log(`wrote ${crds.length} CRDs to ${out.pathname}`);
