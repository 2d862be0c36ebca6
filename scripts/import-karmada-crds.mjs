#!/usr/bin/env node
/**
 * Regenerates lib/karmada/crds.generated.json from Karmada's CRD manifests, keeping what the API needs
 * (names, scope, versions, schemas, printer columns, subresources) and dropping the prose descriptions,
 * so function bundles stay small.
 *   node scripts/import-karmada-crds.mjs <dir with Karmada CRD YAML files> [source label]
 * Current source: Karmada v1.19 (charts/karmada/_crds/bases at f8fdd02). v1.19 dropped the purge modes
 * `Immediately` and `Graciously` (#7792); they stay accepted here, so a v1.15 user's policy still applies.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/import-karmada-crds.mjs <dir with Karmada CRD YAML files>');
  process.exit(2);
}

// Application failover and eviction task purge modes (the cluster failover enum never had them).
const LEGACY_PURGE_MODES = ['Immediately', 'Graciously'];

function strip(value, key = '') {
  if (Array.isArray(value)) return value.map((v) => strip(v));
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'description') out[k] = strip(v, k);
    if (key === 'purgeMode' && Array.isArray(out.enum) && out.enum.includes('Never')) {
      for (const mode of LEGACY_PURGE_MODES) if (!out.enum.includes(mode)) out.enum.push(mode);
    }
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
const source = process.argv[3] ?? 'Karmada v1.19 CRDs (f8fdd02; Apache-2.0, The Karmada Authors)';
writeFileSync(out, `${JSON.stringify({ source, crds })}\n`);
console.log(`wrote ${crds.length} CRDs to ${out.pathname}`);
