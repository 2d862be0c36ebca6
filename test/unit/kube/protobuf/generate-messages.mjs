#!/usr/bin/env node
/**
 * Generates lib/kube/protobuf/messages.ts — the protobuf message tables the decoder walks — from the real
 * Kubernetes sources, so that no field number or JSON name is typed by hand.
 *
 *   node test/unit/kube/protobuf/generate-messages.mjs <kubernetes/api checkout> <kubernetes/apimachinery checkout>
 *
 * For every message reachable from the top-level kinds in ROOTS it joins
 *   - `generated.proto` (field number, proto type, repeated/map), and
 *   - the Go struct in the same package (`json:` tag: JSON name, omitempty/omitzero, inline embedding;
 *     pointer or value type),
 * and fails loudly when the two disagree or a Go struct is missing. Messages with a hand-written JSON form
 * (Time, Quantity, IntOrString, …) are not tabled: the decoder knows them by name (see SPECIAL below).
 * Not run by the tests; re-run it (and prettier) when kubectl or the API gains fields.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [apiRoot, machineryRoot] = process.argv.slice(2);
if (!apiRoot || !machineryRoot) {
  console.error('usage: generate-messages.mjs <kubernetes/api dir> <kubernetes/apimachinery dir>');
  process.exit(2);
}
const OUT = fileURLToPath(new URL('../../../../lib/kube/protobuf/messages.ts', import.meta.url));

/** Top-level kinds: [apiVersion, kind, proto package]. */
const ROOTS = [
  ['v1', 'Namespace', 'k8s.io.api.core.v1'],
  ['v1', 'ConfigMap', 'k8s.io.api.core.v1'],
  ['v1', 'Secret', 'k8s.io.api.core.v1'],
  ['v1', 'ServiceAccount', 'k8s.io.api.core.v1'],
  ['v1', 'Service', 'k8s.io.api.core.v1'],
  ['v1', 'ResourceQuota', 'k8s.io.api.core.v1'],
  ['apps/v1', 'Deployment', 'k8s.io.api.apps.v1'],
  ['batch/v1', 'Job', 'k8s.io.api.batch.v1'],
  ['batch/v1', 'CronJob', 'k8s.io.api.batch.v1'],
  ['rbac.authorization.k8s.io/v1', 'Role', 'k8s.io.api.rbac.v1'],
  ['rbac.authorization.k8s.io/v1', 'ClusterRole', 'k8s.io.api.rbac.v1'],
  ['rbac.authorization.k8s.io/v1', 'RoleBinding', 'k8s.io.api.rbac.v1'],
  ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'k8s.io.api.rbac.v1'],
  ['scheduling.k8s.io/v1', 'PriorityClass', 'k8s.io.api.scheduling.v1'],
  ['policy/v1', 'PodDisruptionBudget', 'k8s.io.api.policy.v1'],
  ['networking.k8s.io/v1', 'Ingress', 'k8s.io.api.networking.v1'],
  ['authentication.k8s.io/v1', 'SelfSubjectReview', 'k8s.io.api.authentication.v1'],
  ['authorization.k8s.io/v1', 'SelfSubjectAccessReview', 'k8s.io.api.authorization.v1'],
  ['authorization.k8s.io/v1', 'SelfSubjectRulesReview', 'k8s.io.api.authorization.v1'],
];

/** Messages whose JSON form is not their proto fields; the decoder implements these by name. */
const SPECIAL = {
  'k8s.io.apimachinery.pkg.apis.meta.v1.Time': 'Time',
  'k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime': 'MicroTime',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Duration': 'Duration',
  'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1': 'FieldsV1',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Verbs': 'StringList',
  'k8s.io.apimachinery.pkg.api.resource.Quantity': 'Quantity',
  'k8s.io.apimachinery.pkg.api.resource.QuantityValue': 'Quantity',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'IntOrString',
  'k8s.io.apimachinery.pkg.runtime.RawExtension': 'RawExtension',
  'k8s.io.api.authentication.v1.ExtraValue': 'StringList',
  'k8s.io.api.authorization.v1.ExtraValue': 'StringList',
};

const SCALARS = new Set(['string', 'bool', 'int32', 'int64', 'bytes', 'double']);

function packageDir(pkg) {
  const api = /^k8s\.io\.api\.(.+)$/.exec(pkg);
  if (api) return join(apiRoot, ...api[1].split('.'));
  const mach = /^k8s\.io\.apimachinery\.(.+)$/.exec(pkg);
  if (mach) return join(machineryRoot, ...mach[1].split('.'));
  throw new Error(`no source directory for proto package ${pkg}`);
}

/** @type {Map<string, {messages: Map<string, {fields: {label: string, type: string, name: string, number: number, packed: boolean}[]}>, structs: Map<string, Map<number, object>>, sliceTypes: Set<string>}>} */
const packages = new Map();

function loadPackage(pkg) {
  let loaded = packages.get(pkg);
  if (loaded) return loaded;
  const dir = packageDir(pkg);
  const proto = readFileSync(join(dir, 'generated.proto'), 'utf8');
  const declared = /^package\s+([\w.]+);/m.exec(proto)?.[1];
  if (declared !== pkg) throw new Error(`${dir}/generated.proto declares package ${declared}, expected ${pkg}`);
  const messages = new Map();
  let current = null;
  for (const raw of proto.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (!line) continue;
    const start = /^message\s+(\w+)\s*\{$/.exec(line);
    if (start) {
      if (current) throw new Error(`nested message ${start[1]} in ${pkg} is not supported`);
      current = { name: start[1], fields: [] };
      continue;
    }
    if (line === '}') {
      if (current) messages.set(current.name, { fields: current.fields });
      current = null;
      continue;
    }
    if (!current) continue;
    if (/^option\s/.test(line)) continue;
    const field =
      /^(optional|repeated)?\s*(map<\s*[\w.]+\s*,\s*[\w.]+\s*>|[\w.]+)\s+(\w+)\s*=\s*(\d+)\s*(\[[^\]]*\])?\s*;$/.exec(
        line,
      );
    if (!field) throw new Error(`cannot parse line in ${pkg}.${current.name}: ${line}`);
    const [, label = 'optional', type, name, number, options = ''] = field;
    current.fields.push({
      label: type.startsWith('map<') ? 'map' : label,
      type: type.replace(/\s+/g, ''),
      name,
      number: Number(number),
      packed: /packed\s*=\s*true/.test(options),
    });
  }

  // Go structs of the package: struct name → field number → { goName, goType, json tag }.
  const structs = new Map();
  const sliceTypes = new Set();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.go') || file.endsWith('_test.go')) continue;
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const slice = /^type\s+(\w+)\s+\[\]string\s*$/.exec(lines[i]);
      if (slice) sliceTypes.add(slice[1]);
      const start = /^type\s+(\w+)\s+struct\s*\{\s*$/.exec(lines[i]);
      if (!start) continue;
      const fields = new Map();
      for (i++; i < lines.length && !/^\}/.test(lines[i]); i++) {
        const line = lines[i].trim();
        if (!line || line.startsWith('//')) continue;
        const m = /^(?:(\w+)\s+)?([\w.*[\]]+)\s*`([^`]*)`/.exec(line);
        if (!m) continue;
        const [, goName, goType, tags] = m;
        const pb = /protobuf:"([^"]*)"/.exec(tags)?.[1];
        if (!pb) continue;
        const number = Number(pb.split(',')[1]);
        const json = /json:"([^"]*)"/.exec(tags)?.[1];
        const [jsonName, ...opts] = (json ?? '-').split(','); // no json tag: not part of the JSON form
        fields.set(number, {
          goName: goName ?? goType.replace(/^\*/, '').replace(/^.*\./, ''),
          embedded: goName === undefined,
          goType,
          jsonName,
          omitempty: opts.includes('omitempty'),
          omitzero: opts.includes('omitzero'),
        });
      }
      structs.set(start[1], fields);
    }
  }
  loaded = { messages, structs, sliceTypes };
  packages.set(pkg, loaded);
  return loaded;
}

/** Resolves a proto type reference used inside `pkg` to a fully qualified message name, or a scalar. */
function qualify(type, pkg) {
  if (SCALARS.has(type)) return type;
  if (type.startsWith('.')) return type.slice(1);
  return `${pkg}.${type}`;
}

function split(qualified) {
  const dot = qualified.lastIndexOf('.');
  return [qualified.slice(0, dot), qualified.slice(dot + 1)];
}

const tables = new Map(); // short name → { qualified, fields: [number, spec][] }
const queue = [];
const problems = [];

/** The name a field's `type` uses for a qualified proto type (enqueueing tabled messages). */
function typeName(qualified) {
  if (SCALARS.has(qualified)) return qualified;
  if (SPECIAL[qualified]) return SPECIAL[qualified];
  const [, short] = split(qualified);
  const seen = tables.get(short);
  if (seen && seen.qualified !== qualified) {
    throw new Error(`message name collision: ${seen.qualified} and ${qualified}; qualify the table keys`);
  }
  if (!seen) {
    tables.set(short, { qualified, fields: null });
    queue.push(qualified);
  }
  return short;
}

function buildTable(qualified) {
  const [pkg, name] = split(qualified);
  const { messages, structs } = loadPackage(pkg);
  const message = messages.get(name);
  if (!message) throw new Error(`message ${qualified} not found`);
  const struct = structs.get(name);
  if (!struct) throw new Error(`Go struct for ${qualified} not found in ${packageDir(pkg)}`);
  const fields = [];
  for (const f of message.fields) {
    const go = struct.get(f.number);
    if (!go) throw new Error(`${qualified} field ${f.number} (${f.name}) has no Go field with that protobuf tag`);
    if (go.jsonName === '-') throw new Error(`${qualified}.${go.goName} is json:"-" but on the wire`);
    const inline = go.embedded && go.jsonName === '';
    if (!inline && go.jsonName !== f.name) {
      problems.push(`note: ${qualified} field ${f.number}: proto name ${f.name}, JSON name ${go.jsonName}`);
    }
    const spec = { name: inline ? f.name : go.jsonName };
    if (f.label === 'map') {
      const [, key, value] = /^map<([\w.]+),([\w.]+)>$/.exec(f.type);
      if (key !== 'string') throw new Error(`${qualified}.${f.name}: map key ${key} not supported`);
      spec.type = `map<string,${typeName(qualify(value, pkg))}>`;
    } else {
      spec.type = typeName(qualify(f.type, pkg));
      if (f.label === 'repeated') spec.repeated = true;
    }
    if (f.packed) spec.packed = true;
    const pointer = go.goType.startsWith('*');
    const scalar = SCALARS.has(spec.type);
    if (inline) {
      if (scalar || SPECIAL[qualify(f.type, pkg)] || f.label !== 'optional') {
        throw new Error(`${qualified}.${f.name}: inline embedding of ${f.type} not supported`);
      }
      spec.inline = true;
    } else if (!pointer && f.label === 'optional') {
      // encoding/json: omitempty drops zero scalars; omitzero drops zero structs (only Time is expected).
      if (go.omitempty && scalar) spec.omitEmpty = true;
      else if (go.omitzero) {
        if (!['Time', 'MicroTime'].includes(spec.type)) {
          throw new Error(`${qualified}.${f.name}: omitzero on ${spec.type} not supported by the decoder`);
        }
        spec.omitEmpty = true;
      }
    }
    fields.push([f.number, spec]);
  }
  for (const number of struct.keys()) {
    if (!message.fields.some((f) => f.number === number)) {
      throw new Error(`${qualified}: Go field with protobuf tag ${number} missing from generated.proto`);
    }
  }
  return fields;
}

// Sanity: the SPECIAL messages still have the shape the decoder assumes.
function checkSpecial(qualified, expected) {
  const [pkg, name] = split(qualified);
  if (!existsSync(join(packageDir(pkg), 'generated.proto'))) return;
  const message = loadPackage(pkg).messages.get(name);
  if (!message) return;
  const got = message.fields.map((f) => `${f.label} ${f.type} ${f.number}`).join('; ');
  if (got !== expected) throw new Error(`${qualified} changed shape: ${got} (decoder expects ${expected})`);
}
checkSpecial('k8s.io.apimachinery.pkg.apis.meta.v1.Time', 'optional int64 1; optional int32 2');
checkSpecial('k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime', 'optional int64 1; optional int32 2');
checkSpecial('k8s.io.apimachinery.pkg.apis.meta.v1.Duration', 'optional int64 1');
checkSpecial('k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1', 'optional bytes 1');
checkSpecial('k8s.io.apimachinery.pkg.apis.meta.v1.Verbs', 'repeated string 1');
checkSpecial('k8s.io.apimachinery.pkg.api.resource.Quantity', 'optional string 1');
checkSpecial(
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
  'optional int64 1; optional int32 2; optional string 3',
);
checkSpecial('k8s.io.apimachinery.pkg.runtime.RawExtension', 'optional bytes 1');
checkSpecial('k8s.io.apimachinery.pkg.runtime.TypeMeta', 'optional string 1; optional string 2');
checkSpecial(
  'k8s.io.apimachinery.pkg.runtime.Unknown',
  'optional TypeMeta 1; optional bytes 2; optional string 3; optional string 4',
);
checkSpecial('k8s.io.api.authentication.v1.ExtraValue', 'repeated string 1');
checkSpecial('k8s.io.api.authorization.v1.ExtraValue', 'repeated string 1');

const kinds = [];
for (const [apiVersion, kind, pkg] of ROOTS) {
  kinds.push([`${apiVersion}/${kind}`, typeName(`${pkg}.${kind}`)]);
}
while (queue.length) {
  const qualified = queue.shift();
  tables.get(split(qualified)[1]).fields = buildTable(qualified);
}
for (const p of problems) console.error(p);

const q = (s) => `'${s}'`;
const out = [];
out.push(`// GENERATED by test/unit/kube/protobuf/generate-messages.mjs from kubernetes/api and kubernetes/apimachinery
// (generated.proto for field numbers and types, the Go structs' json tags for names). Do not edit by hand.
//
// Field \`type\` is a scalar ('string' | 'bool' | 'int32' | 'int64' | 'bytes' | 'double'), the name of another
// message in MESSAGES, a special message the decoder handles by name (${[...new Set(Object.values(SPECIAL))].sort().join(', ')}),
// or 'map<string,V>' with V one of those. \`omitEmpty\`: the Go field is a non-pointer with omitempty (scalars) or
// omitzero (Time), so encoding/json drops its zero value — kubectl's protobuf encoder writes it anyway.
// \`inline\`: an embedded Go struct whose fields appear in the parent's JSON object.

export interface FieldSpec {
  /** JSON name (the Go json tag); for inline fields the proto name, for error messages only. */
  readonly name: string;
  readonly type: string;
  readonly repeated?: true;
  /** Declared [packed=true]; the decoder accepts packed and unpacked either way. */
  readonly packed?: true;
  readonly omitEmpty?: true;
  readonly inline?: true;
}

export type MessageSpec = Readonly<Record<number, FieldSpec>>;

/** \`apiVersion/kind\` → top-level message name. */
export const KINDS: Readonly<Record<string, string>> = {`);
for (const [key, name] of kinds) out.push(`  ${q(key)}: ${q(name)},`);
out.push(`};

export const MESSAGES: Readonly<Record<string, MessageSpec>> = {`);
for (const name of [...tables.keys()].sort()) {
  const { qualified, fields } = tables.get(name);
  out.push(`  // ${qualified}`);
  out.push(`  ${name}: {`);
  for (const [number, spec] of fields) {
    const parts = [`name: ${q(spec.name)}`, `type: ${q(spec.type)}`];
    for (const flag of ['repeated', 'packed', 'omitEmpty', 'inline']) if (spec[flag]) parts.push(`${flag}: true`);
    out.push(`    ${number}: { ${parts.join(', ')} },`);
  }
  out.push('  },');
}
out.push('};', '');
writeFileSync(OUT, out.join('\n'));
console.error(`wrote ${OUT}: ${tables.size} messages, ${kinds.length} kinds`);
