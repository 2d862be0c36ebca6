/**
 * Patching the JSON or YAML document held in a string field — the heart of Karmada's
 * `FieldOverrider` (`pkg/util/overridemanager/overridemanager.go` `applyRawJSONPatch` /
 * `applyRawYAMLPatch`).
 *
 * The patch semantics are Karmada's: RFC 6902 `add`/`remove`/`replace` at `subPath`, failing on
 * missing paths. The text that comes out differs on purpose: Karmada converts YAML to JSON and back
 * (keys sorted, comments and layout lost); here the YAML document is edited in place with the `yaml`
 * package, so key order, comments, quoting and indentation survive and only the patched nodes change.
 */
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parse as parseYaml,
  parseDocument,
  stringify as stringifyYaml,
} from 'yaml';
import { PatchError } from '../../util/patch-error.ts';
import { applyJsonPatch } from '../../util/json-patch.ts';
import { cloneJson, jsonEqual } from '../../util/json-value.ts';
import { getAt, parsePointer } from './pointer.ts';
import type { SubPatchOperation } from './types.ts';

/** A rewritten document, or why the operations cannot apply to it. */
export type StructuredResult = { ok: true; text: string } | { ok: false; error: string };

/** One operation as the JSON patch engine takes it (Karmada `overrideOption`). */
interface PatchOp {
  op: string;
  path: string;
  value: unknown;
}

function toPatchOp(o: SubPatchOperation): PatchOp {
  // Karmada marshals an absent `apiextensionsv1.JSON` value as `null`.
  return { op: o.operator, path: o.subPath, value: o.value === undefined ? null : o.value };
}

function patchError(err: unknown): string {
  if (err instanceof PatchError) return err.message;
  throw err;
}

/**
 * Applies `ops` to the JSON document `text` (Karmada `applyRawJSONPatch`) and writes the result as
 * Karmada does: compact Go JSON, whatever the layout of the original (key order is kept). An empty
 * string is returned unchanged, as evanphx/json-patch does.
 *
 * @example patchJsonText('{"key":{"key1":"value"}}', [{ subPath: '/key/key1', operator: 'replace', value: 'updated_value' }])
 * // { ok: true, text: '{"key":{"key1":"updated_value"}}' }
 */
export function patchJsonText(text: string, ops: readonly SubPatchOperation[]): StructuredResult {
  if (text.length === 0) return { ok: true, text };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `the field does not hold valid JSON: ${(err as Error).message}` };
  }
  let patched: unknown;
  try {
    patched = applyJsonPatch(doc, ops.map(toPatchOp));
  } catch (err) {
    return { ok: false, error: patchError(err) };
  }
  return { ok: true, text: goJsonMarshal(patched) };
}

/**
 * JSON as Go's `json.Marshal` writes it (what Karmada stores after a JSON FieldOverrider): compact, with
 * `<`, `>`, `&`, U+2028 and U+2029 escaped as `\u003c`… (those characters only occur inside strings).
 */
function goJsonMarshal(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Layout of the source YAML, so rewritten and added nodes match it. */
interface YamlStyle {
  indent: number;
  indentSeq: boolean;
}

function column(lc: LineCounter, offset: number): number {
  return lc.linePos(offset).col;
}

/** Block indentation and whether block sequences under a key are indented (`a:\n  - x`) or not (`a:\n- x`). */
function detectStyle(doc: Document, lc: LineCounter): YamlStyle {
  let indent: number | undefined;
  let indentSeq: boolean | undefined;
  const visit = (node: unknown): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        const value = pair.value as Node | null;
        const keyStart = key?.range?.[0];
        if (!node.flow && keyStart !== undefined && value?.range) {
          const keyCol = column(lc, keyStart);
          if (isMap(value) && !value.flow && value.items.length > 0) {
            const childStart = (value.items[0]!.key as Node | null)?.range?.[0];
            if (childStart !== undefined && indent === undefined) {
              const diff = column(lc, childStart) - keyCol;
              if (diff > 0) indent = diff;
            }
          } else if (isSeq(value) && !value.flow && value.items.length > 0 && indentSeq === undefined) {
            const diff = column(lc, value.range[0]) - keyCol;
            indentSeq = diff > 0;
            if (diff > 0 && indent === undefined) indent = diff;
          }
        }
        visit(value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item);
    }
  };
  visit(doc.contents);
  // sigs.k8s.io/yaml (what Karmada and kubectl write) does not indent sequences under a key.
  return { indent: indent ?? 2, indentSeq: indentSeq ?? false };
}

function isScalarValue(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/**
 * The value a `replace` writes: a string replacing a number or boolean becomes that number or
 * boolean when its plain YAML form reads back as one (`"3306"` over `port: 5432` writes `port: 3306`,
 * as the v1.12 release notes show), so the field keeps its type. Anything else is written as given.
 */
function effectiveValue(op: PatchOp, current: unknown): unknown {
  if (op.op !== 'replace' || typeof op.value !== 'string') return op.value;
  if (typeof current !== 'number' && typeof current !== 'boolean') return op.value;
  let parsed: unknown;
  try {
    parsed = parseYaml(op.value, { logLevel: 'silent' });
  } catch {
    return op.value;
  }
  if (typeof parsed !== typeof current) return op.value;
  return stringifyYaml(parsed).trim() === op.value ? parsed : op.value;
}

/** The operations the tree edit knows; any other (only reachable past the CRD enum) re-serialises. */
const MIRRORED: ReadonlySet<string> = new Set(['add', 'remove', 'replace']);

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

/** A node for `value` taking over the old node's comments and, for a scalar of the same type, its quoting. */
function replacementNode(doc: Document, old: unknown, value: unknown): unknown {
  if (isScalar(old) && isScalarValue(value) && typeof old.value === typeof value && old.value !== null) {
    old.value = value;
    delete old.source;
    delete old.format;
    return old;
  }
  const node = doc.createNode(value);
  if (isScalar(old) || isMap(old) || isSeq(old)) {
    if (old.comment) node.comment = old.comment;
    if (old.commentBefore) node.commentBefore = old.commentBefore;
    if (old.spaceBefore) node.spaceBefore = old.spaceBefore;
  }
  return node;
}

/**
 * Mirrors one already-validated operation onto the document tree. False when the tree cannot take it
 * faithfully (aliases, merge keys, unusual keys): the caller then re-serialises the patched value.
 */
function mirror(doc: Document, op: string, tokens: readonly string[], value: unknown): boolean {
  if (tokens.length === 0) {
    if (op === 'remove') return false;
    doc.contents = doc.createNode(value) as Document['contents'];
    return true;
  }
  let node: unknown = doc.contents;
  for (const token of tokens.slice(0, -1)) {
    if (isMap(node)) node = node.items.find((p) => keyText(p.key) === token)?.value;
    else if (isSeq(node)) node = node.items[Number(token)];
    else return false;
    if (isAlias(node)) return false;
  }
  const last = tokens[tokens.length - 1]!;
  if (isMap(node)) {
    const index = node.items.findIndex((p) => keyText(p.key) === last);
    if (op === 'remove') {
      if (index < 0) return false;
      node.items.splice(index, 1);
    } else if (index >= 0) {
      const pair = node.items[index]!;
      if (isAlias(pair.value)) return false;
      pair.value = replacementNode(doc, pair.value, value);
    } else if (op === 'add') {
      node.items.push(doc.createPair(last, value));
    } else {
      return false;
    }
    return true;
  }
  if (isSeq(node)) {
    const index = last === '-' ? node.items.length : Number(last);
    if (op === 'add') node.items.splice(index, 0, doc.createNode(value));
    else if (op === 'remove') node.items.splice(index, 1);
    else if (isAlias(node.items[index])) return false;
    else node.items[index] = replacementNode(doc, node.items[index], value);
    return true;
  }
  return false;
}

/**
 * Applies `ops` to the YAML document `text` (Karmada `applyRawYAMLPatch`): same patch semantics as
 * JSON, same failures (unparsable YAML, missing path), but the document is edited in place — key
 * order, comments, quoting, indentation and the presence of a trailing newline are kept. A string
 * replacing a number or boolean that reads back as one keeps the field's type (see the module notes).
 *
 * @example patchYamlText('app:\n  port: 5432\n  ip: 127.0.0.1\n', [{ subPath: '/app/port', operator: 'replace', value: '3306' }])
 * // { ok: true, text: 'app:\n  port: 3306\n  ip: 127.0.0.1\n' }
 */
export function patchYamlText(text: string, ops: readonly SubPatchOperation[]): StructuredResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return { ok: false, error: `the field does not hold valid YAML: ${doc.errors[0]!.message.split('\n')[0]}` };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    return { ok: false, error: `the field does not hold usable YAML: ${(err as Error).message}` };
  }
  const style = detectStyle(doc, lineCounter);
  let faithful = true;
  for (const [index, raw] of ops.entries()) {
    const op = toPatchOp(raw);
    const pointer = parsePointer(op.path);
    if (!pointer.ok) return { ok: false, error: `json patch operation ${index}: invalid "path": ${pointer.error}` };
    const current = op.op === 'replace' ? getAt(value, pointer.tokens) : undefined;
    const effective = effectiveValue(op, current?.ok ? current.value : undefined);
    try {
      value = applyJsonPatch(value, [{ ...op, value: effective }]);
    } catch (err) {
      return { ok: false, error: patchError(err).replace(/^json patch operation 0/, `json patch operation ${index}`) };
    }
    if (faithful) faithful = MIRRORED.has(op.op) && mirror(doc, op.op, pointer.tokens, cloneJson(effective));
  }
  const options = { indent: style.indent, indentSeq: style.indentSeq, lineWidth: 0, flowCollectionPadding: false };
  let out = faithful ? doc.toString(options) : '';
  if (!faithful || !roundTrips(out, value)) out = value === null ? '' : stringifyYaml(value, options);
  if (!text.endsWith('\n') && out.endsWith('\n')) out = out.slice(0, -1);
  return { ok: true, text: out };
}

function roundTrips(text: string, value: unknown): boolean {
  try {
    return jsonEqual(parseYaml(text, { logLevel: 'silent' }), value);
  } catch {
    return false;
  }
}
