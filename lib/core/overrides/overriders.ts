/**
 * Each overrider kind as a pure step over a working copy of the object, Karmada v1.15.9
 * `pkg/util/overridemanager/{imageoverride,commandargsoverride,labelannotationoverrider,overridemanager}.go`.
 * Every step builds RFC 6902 operations from the object as it is at that point and applies them; a step
 * that cannot apply throws {@link OverriderError} and the caller discards the working copy.
 */
import { PatchError } from '../../util/patch-error.ts';
import { applyJsonPatch } from '../../util/json-patch.ts';
import { getOwn, hasOwn, isJsonObject, type JsonObject, setOwn } from '../../util/json-value.ts';
import { parseImage } from './image-reference.ts';
import { getAt, parsePointer, setAt } from './pointer.ts';
import { patchJsonText, patchYamlText } from './structured.ts';
import type {
  CommandArgsOverrider,
  FieldOverrider,
  ImageOverrider,
  LabelAnnotationOverrider,
  Overriders,
  PlaintextOverrider,
} from './types.ts';

/** An overrider that cannot apply to the object; the message says which one and why. */
export class OverriderError extends Error {
  override readonly name = 'OverriderError';
}

/** Karmada `overrideOption`: one JSON patch operation. */
export interface OverrideOption {
  op: string;
  path: string;
  value?: unknown;
}

/** `applyJSONPatch`: the patched copy, or an {@link OverriderError} carrying the patch failure. */
function applyOptions(obj: JsonObject, options: readonly OverrideOption[], what: string): JsonObject {
  // Karmada round-trips the object even for an empty patch; on plain JSON that changes nothing.
  if (options.length === 0) return obj;
  try {
    const patched = applyJsonPatch(obj, options);
    if (!isJsonObject(patched)) throw new OverriderError(`${what}: the patched object is no longer a JSON object`);
    return patched;
  } catch (err) {
    if (err instanceof PatchError) throw new OverriderError(`${what}: ${err.message}`);
    throw err;
  }
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

// ---------------------------------------------------------------------------------------------------
// imageOverrider (imageoverride.go)

/** Where each known workload kind keeps its pod spec; other kinds get no default image paths. */
const POD_SPEC_PATH: Readonly<Record<string, readonly string[]>> = {
  Pod: ['spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  Deployment: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
};

/**
 * `overrideImage`: the new image for `current`. Registry/Repository `add` appends the value to the
 * component as a string, `replace` sets it, `remove` clears it; Tag `add` appends to the tag (or
 * digest) and `replace` sets a tag or digest — a value that is neither is a silent no-op —
 * `remove` drops the tag, else the digest. An image with both tag and digest loses the digest.
 *
 * @example overrideImage('fictional.registry.example/imagename:v1.0.0', { component: 'Registry', operator: 'add', value: '.test' })
 * // 'fictional.registry.example.test/imagename:v1.0.0'
 */
export function overrideImage(current: string, overrider: ImageOverrider): string {
  const parsed = parseImage(current);
  if (!parsed.ok) throw new OverriderError(`failed to parse image value(${current}), error: ${parsed.error}`);
  const image = parsed.image;
  const value = overrider.value ?? '';
  switch (overrider.component) {
    case 'Registry':
      if (overrider.operator === 'add') image.hostname += value;
      else if (overrider.operator === 'replace') image.hostname = value;
      else if (overrider.operator === 'remove') image.hostname = '';
      break;
    case 'Repository':
      if (overrider.operator === 'add') image.repository += value;
      else if (overrider.operator === 'replace') image.repository = value;
      else if (overrider.operator === 'remove') image.repository = '';
      break;
    case 'Tag':
      if (overrider.operator === 'add') image.setTagOrDigest(image.tagOrDigest() + value);
      else if (overrider.operator === 'replace') image.setTagOrDigest(value);
      else if (overrider.operator === 'remove') image.removeTagOrDigest();
      break;
    default:
      throw new OverriderError(`unsupported image component(${String(overrider.component)})`);
  }
  return image.toString();
}

/** `obtainImageValue`: Karmada's own walk of a predicate path (maps by key, arrays by index). */
function obtainImageValue(obj: JsonObject, path: string): string {
  const segments = path.replace(/^\/+|\/+$/g, '').split('/');
  let current: JsonObject = obj;
  for (let i = 0; i < segments.length - 1; i++) {
    const child = getOwn(current, segments[i]!);
    if (isJsonObject(child)) {
      current = child;
    } else if (Array.isArray(child)) {
      const raw = segments[i + 1]!;
      if (!/^[+-]?[0-9]+$/.test(raw)) throw new Error(`path(${raw}) of rawObj's is not number`);
      const element: unknown = child[Number(raw)];
      if (!isJsonObject(element)) throw new Error(`path(${raw}) of rawObj's is not an element of the array`);
      current = element;
      i++;
    } else {
      throw new Error(`path(${segments[i]}) of rawObj's type is not map[string]interface{} and []interface{}`);
    }
  }
  const last = segments[segments.length - 1]!;
  const image = getOwn(current, last);
  if (typeof image !== 'string') throw new Error(`failed to convert path(${last}) to string`);
  return image;
}

function imageOptions(obj: JsonObject, overrider: ImageOverrider): OverrideOption[] {
  if (overrider.predicate) {
    const path = overrider.predicate.path ?? '';
    let image: string;
    try {
      image = obtainImageValue(obj, path);
    } catch (err) {
      throw new OverriderError(
        `failed to obtain imageValue with predicate path(${path}), error: ${(err as Error).message}`,
      );
    }
    if (!path.startsWith('/')) throw new OverriderError('imagePath should be start with / character');
    return [{ op: 'replace', path, value: overrideImage(image, overrider) }];
  }
  const kind = str(obj.kind);
  const prefix = hasOwn(POD_SPEC_PATH, kind) ? POD_SPEC_PATH[kind]! : undefined;
  if (!prefix) return [];
  const options: OverrideOption[] = [];
  for (const [index, image] of containerImages(obj, kind, prefix).entries()) {
    options.push({
      op: 'replace',
      path: `/${prefix.join('/')}/containers/${index}/image`,
      value: overrideImage(image, overrider),
    });
  }
  return options;
}

/**
 * The images of `spec.containers` (init containers are not touched, as in Karmada), read the way
 * Karmada's typed conversion does: a missing image is `""` (which then fails to parse), a value of
 * the wrong type fails the conversion.
 */
function containerImages(obj: JsonObject, kind: string, prefix: readonly string[]): string[] {
  const fail = (why: string): OverriderError =>
    new OverriderError(`failed to convert ${kind} from unstructured object: ${why}`);
  let node: unknown = obj;
  for (const [depth, key] of prefix.entries()) {
    if (node === undefined || node === null) return [];
    if (!isJsonObject(node)) throw fail(`${prefix.slice(0, depth).join('.')} is not an object`);
    node = getOwn(node, key);
  }
  if (node === undefined || node === null) return [];
  if (!isJsonObject(node)) throw fail(`${prefix.join('.')} is not an object`);
  const containers = getOwn(node, 'containers');
  if (containers === undefined || containers === null) return [];
  if (!Array.isArray(containers)) throw fail(`${prefix.join('.')}.containers is not an array`);
  return containers.map((container: unknown, i) => {
    if (!isJsonObject(container)) throw fail(`${prefix.join('.')}.containers[${i}] is not an object`);
    const image = getOwn(container, 'image');
    if (image === undefined || image === null) return '';
    if (typeof image !== 'string') throw fail(`${prefix.join('.')}.containers[${i}].image is not a string`);
    return image;
  });
}

// ---------------------------------------------------------------------------------------------------
// commandOverrider / argsOverrider (commandargsoverride.go)

/** Where `buildCommandArgsPatches` looks for containers, by kind. */
const CONTAINERS_PATH: Readonly<Record<string, readonly string[]>> = {
  Pod: ['spec', 'containers'],
  ReplicaSet: ['spec', 'template', 'spec', 'containers'],
  Deployment: ['spec', 'template', 'spec', 'containers'],
  DaemonSet: ['spec', 'template', 'spec', 'containers'],
  Job: ['spec', 'template', 'spec', 'containers'],
  StatefulSet: ['spec', 'template', 'spec', 'containers'],
};

/** `overrideCommandArgs`: `add` appends, `remove` drops every occurrence, anything else keeps the list. */
function overrideCommandArgs(current: readonly string[], overrider: CommandArgsOverrider): string[] {
  const values = overrider.value ?? [];
  if (overrider.operator === 'add') return [...current, ...values];
  if (overrider.operator === 'remove') {
    const drop = new Set(values);
    return current.filter((v) => !drop.has(v));
  }
  return [...current];
}

/** `unstructured.NestedSlice`: undefined when a step is missing or null, an error when a step has the wrong type. */
function nestedSlice(obj: JsonObject, path: readonly string[]): unknown[] | undefined {
  let node: unknown = obj;
  for (const [depth, key] of path.entries()) {
    if (node === undefined || node === null) return undefined;
    if (!isJsonObject(node)) throw new Error(`.${path.slice(0, depth + 1).join('.')} accessor error: not an object`);
    if (!hasOwn(node, key)) return undefined;
    node = getOwn(node, key);
  }
  if (!Array.isArray(node)) throw new Error(`.${path.join('.')} accessor error: expected an array`);
  return node;
}

function commandArgsOptions(target: 'command' | 'args', obj: JsonObject, overrider: CommandArgsOverrider) {
  const kind = str(obj.kind);
  const path = hasOwn(CONTAINERS_PATH, kind) ? CONTAINERS_PATH[kind]! : undefined;
  if (!path) return [];
  let containers: unknown[] | undefined;
  try {
    containers = nestedSlice(obj, path);
  } catch (err) {
    throw new OverriderError(
      `failed to retrieves path(${path.join('/')}) from rawObj, error: ${(err as Error).message}`,
    );
  }
  const options: OverrideOption[] = [];
  for (const [index, container] of (containers ?? []).entries()) {
    if (!isJsonObject(container)) throw new OverriderError(`/${path.join('/')}/${index} is not an object`);
    if (getOwn(container, 'name') !== overrider.containerName) continue;
    const at = `/${path.join('/')}/${index}/${target}`;
    const current = getOwn(container, target);
    if (current === undefined || current === null) {
      options.push({ op: 'add', path: at, value: overrideCommandArgs([], overrider) });
      continue;
    }
    if (!Array.isArray(current)) throw new OverriderError(`${at} is not an array`);
    options.push({ op: 'replace', path: at, value: overrideCommandArgs(current.map(String), overrider) });
  }
  return options;
}

// ---------------------------------------------------------------------------------------------------
// labelsOverrider / annotationsOverrider (labelannotationoverrider.go)

/** `unstructured.NestedStringMap` at `metadata.<field>`: undefined when absent or not a string map. */
function metadataStringMap(obj: JsonObject, field: string): JsonObject | undefined {
  const metadata = getOwn(obj, 'metadata');
  if (!isJsonObject(metadata)) return undefined;
  const map = getOwn(metadata, field);
  if (!isJsonObject(map)) return undefined;
  return Object.values(map).every((v) => typeof v === 'string') ? map : undefined;
}

/**
 * `buildLabelAnnotationOverriderPatches`: `add` creates the map when it is missing (or unusable) and
 * sets every key; `replace` and `remove` only touch keys that exist. Mutates `obj` (the working copy)
 * to create the map, as Karmada does.
 */
function labelAnnotationOptions(obj: JsonObject, overrider: LabelAnnotationOverrider, field: string) {
  const options: OverrideOption[] = [];
  for (const [key, value] of Object.entries(overrider.value ?? {})) {
    if (overrider.operator === 'remove' || overrider.operator === 'replace') {
      const existing = metadataStringMap(obj, field);
      if (!existing || !hasOwn(existing, key)) continue;
    } else if (overrider.operator === 'add' && !metadataStringMap(obj, field)) {
      let metadata = getOwn(obj, 'metadata');
      if (metadata === undefined) {
        metadata = {};
        setOwn(obj, 'metadata', metadata);
      }
      if (!isJsonObject(metadata)) continue;
      setOwn(metadata, field, {});
    }
    // Only "/" needs escaping: "~" is not valid in label or annotation keys.
    options.push({ op: overrider.operator, path: `/metadata/${field}/${key.replace(/\//g, '~1')}`, value });
  }
  return options;
}

// ---------------------------------------------------------------------------------------------------
// fieldOverrider (overridemanager.go applyFieldOverriders)

function applyFieldOverrider(obj: JsonObject, overrider: FieldOverrider, what: string): void {
  const fieldPath = overrider.fieldPath ?? '';
  const pointer = parsePointer(fieldPath);
  if (!pointer.ok)
    throw new OverriderError(`${what}: invalid fieldPath ${JSON.stringify(fieldPath)}: ${pointer.error}`);
  const found = getAt(obj, pointer.tokens);
  if (!found.ok) throw new OverriderError(`${what}: fieldPath ${fieldPath}: ${found.error}`);
  if (typeof found.value !== 'string') {
    throw new OverriderError(`${what}: Get object's value by overrider's path(${fieldPath}) is not string`);
  }
  const yaml = overrider.yaml ?? [];
  const json = overrider.json ?? [];
  let result;
  if (yaml.length > 0) result = patchYamlText(found.value, yaml);
  else if (json.length > 0) result = patchJsonText(found.value, json);
  else return;
  if (!result.ok) throw new OverriderError(`${what}: fieldPath ${fieldPath}: ${result.error}`);
  setAt(obj, pointer.tokens, result.text);
}

// ---------------------------------------------------------------------------------------------------
// One rule's overriders (applyPolicyOverriders)

/** `parseJSONPatchesByPlaintext`: an absent value is sent as `null`. */
function plaintextOptions(overriders: readonly PlaintextOverrider[]): OverrideOption[] {
  return overriders.map((o) => ({ op: o.operator, path: o.path, value: o.value === undefined ? null : o.value }));
}

/**
 * Applies one rule's overriders to `obj` in Karmada's fixed order — image, command, args, labels,
 * annotations, field, plaintext — each overrider on the result of the previous one. Returns the new
 * object; `obj` itself may be modified (pass a working copy). Throws {@link OverriderError}.
 */
export function applyRuleOverriders(obj: JsonObject, overriders: Overriders): JsonObject {
  let current = obj;
  for (const [i, o] of (overriders.imageOverrider ?? []).entries()) {
    const what = `imageOverrider[${i}]`;
    const options = withContext(what, () => imageOptions(current, o));
    current = applyOptions(current, options, what);
  }
  for (const [name, target] of [
    ['commandOverrider', 'command'],
    ['argsOverrider', 'args'],
  ] as const) {
    for (const [i, o] of (overriders[name] ?? []).entries()) {
      const what = `${name}[${i}]`;
      const options = withContext(what, () => commandArgsOptions(target, current, o));
      current = applyOptions(current, options, what);
    }
  }
  for (const [name, field] of [
    ['labelsOverrider', 'labels'],
    ['annotationsOverrider', 'annotations'],
  ] as const) {
    for (const [i, o] of (overriders[name] ?? []).entries()) {
      current = applyOptions(current, labelAnnotationOptions(current, o, field), `${name}[${i}]`);
    }
  }
  for (const [i, o] of (overriders.fieldOverrider ?? []).entries()) {
    applyFieldOverrider(current, o, `fieldOverrider[${i}]`);
  }
  return applyOptions(current, plaintextOptions(overriders.plaintext ?? []), 'plaintext');
}

function withContext<T>(what: string, build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (err instanceof OverriderError) throw new OverriderError(`${what}: ${err.message}`);
    throw err;
  }
}
