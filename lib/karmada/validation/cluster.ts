/**
 * Cluster (`cluster.karmada.io/v1alpha1`, served by karmada-aggregated-apiserver) validation and
 * defaulting, as Karmada v1.15 does it: `pkg/apis/cluster/validation/validation.go`,
 * `pkg/apis/cluster/mutation/mutation.go` and the registry strategy (`pkg/registry/cluster/strategy.go`)
 * with the `CustomizedClusterResourceModeling` gate on (its default).
 */
import { rfc3339Text } from '../../api/time.ts';
import type { KubeObject } from '../../api/object.ts';
import { type FieldError, childPath, fieldError } from '../../kube/base/field-errors.ts';
import { cloneJson } from '../../util/json.ts';
import { validateClusterName } from './cluster-name.ts';
import type { KarmadaDefaultingContext } from './context.ts';
import { parseGoUrl } from './go-url.ts';
import { isValidLabelValue } from '../../util/validation.ts';
import { uniqueErrors, validateLabelName } from './k8s-rules.ts';
import {
  compareQuantities,
  isQuantityError,
  isZeroQuantity,
  MAX_INT64_TEXT,
  parseQuantity,
  type Quantity,
  sameQuantityRepresentation,
  scaledValue,
} from '../../api/quantity.ts';
import { list, num, record, text } from './shape.ts';

const SUPPORTED_SYNC_MODES = ['Pull', 'Push'];
const TAINT_EFFECTS = ['NoSchedule', 'NoExecute'];
const MAX_INT64 = BigInt(MAX_INT64_TEXT);

/** `ValidateClusterAPIEndpoint` (forceHTTPS off, as the registry calls it). */
function validateApiEndpoint(endpoint: string, path: string): FieldError[] {
  const form = '; desired format: hostname, hostname:port, IP or IP:port';
  const u = parseGoUrl(endpoint);
  if ('error' in u) return [fieldError.invalid(path, endpoint, `apiEndpoint must be a valid URL: ${u.error}${form}`)];
  const errs: FieldError[] = [];
  if (u.host === '') errs.push(fieldError.invalid(path, u.host, `host must be provided${form}`));
  if (u.user !== undefined) errs.push(fieldError.invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '') errs.push(fieldError.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery !== '')
    errs.push(fieldError.invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** `ValidateClusterProxyURL`: parses, with scheme http, https or socks5. */
function validateProxyUrl(proxyUrl: string, path: string): FieldError[] {
  const u = parseGoUrl(proxyUrl);
  if ('error' in u) return [fieldError.invalid(path, proxyUrl, `apiEndpoint must be a valid URL: ${u.error}`)];
  if (!['http', 'https', 'socks5'].includes(u.scheme)) {
    return [
      fieldError.invalid(
        path,
        proxyUrl,
        `unsupported scheme ${JSON.stringify(u.scheme)}, must be http, https, or socks5`,
      ),
    ];
  }
  return [];
}

/** `validateClusterSpecForFieldSelector`: provider, region and zone(s) are label values. */
function validateTopology(spec: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['provider', 'region'] as const) {
    const value = text(spec[field]);
    const msgs = isValidLabelValue(value);
    if (msgs.length > 0) errs.push(fieldError.invalid(`spec.${field}`, value, msgs.join('; ')));
  }
  const zone = text(spec.zone);
  const zones = list(spec.zones);
  // Karmada's paths here are spec.spec, spec.Zone and spec.Zones (sic).
  if (zone !== '' && zones.length > 0) {
    return [
      ...errs,
      { type: 'TypeInvalid', field: 'spec.spec', value: spec, detail: 'Zone and Zones cannot co-exist' },
    ];
  }
  if (zone !== '') {
    const msgs = isValidLabelValue(zone);
    if (msgs.length > 0) errs.push(fieldError.invalid('spec.Zone', zone, msgs.join('; ')));
    return errs;
  }
  for (const z of zones) {
    const msgs = isValidLabelValue(text(z));
    if (msgs.length > 0) errs.push(fieldError.invalid('spec.Zones', text(z), msgs.join('; ')));
  }
  return errs;
}

/**
 * `ValidateClusterTaints`: keys are label keys, values label values, effect NoSchedule or NoExecute
 * (Karmada does not accept PreferNoSchedule), and key+effect unique.
 */
export function validateClusterTaints(taints: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((item, i) => {
    const taint = record(item) ?? {};
    const at = childPath(path, i);
    const key = text(taint.key);
    const value = text(taint.value);
    const effect = text(taint.effect);
    errs.push(...validateLabelName(key, childPath(at, 'key')));
    const valueMsgs = isValidLabelValue(value);
    if (valueMsgs.length > 0) errs.push(fieldError.invalid(childPath(at, 'value'), value, valueMsgs.join(';')));
    if (effect === '') errs.push(fieldError.required(childPath(at, 'effect')));
    else if (!TAINT_EFFECTS.includes(effect))
      errs.push(fieldError.notSupported(childPath(at, 'effect'), effect, TAINT_EFFECTS));
    const id = JSON.stringify([effect, key]);
    if (seen.has(id)) {
      errs.push({ type: 'Duplicate', field: at, value: taint, detail: 'taints must be unique by key and effect pair' });
      return;
    }
    seen.add(id);
  });
  return errs;
}

interface ParsedRange {
  name: string;
  min: Quantity;
  max: Quantity;
}

function parseRanges(model: Record<string, unknown>): ParsedRange[] | string {
  const out: ParsedRange[] = [];
  for (const item of list(model.ranges)) {
    const r = record(item) ?? {};
    const min = parseQuantity(typeof r.min === 'number' ? r.min : text(r.min));
    const max = parseQuantity(typeof r.max === 'number' ? r.max : text(r.max));
    if (isQuantityError(min)) return min.error;
    if (isQuantityError(max)) return max.error;
    out.push({ name: text(r.name), min, max });
  }
  return out;
}

/**
 * `ValidateClusterResourceModels` (first problem only): grades distinct, same resources in the same
 * order in every grade, max > min, the first grade starting at 0, each grade's min equal (as Go's
 * `==` on the Quantity: same amount written the same way) to the previous grade's max, and the last
 * grade unbounded (max = 9223372036854775807). Models are expected in grade order, as defaulting leaves them.
 */
export function validateResourceModels(models: unknown[], path: string): FieldError[] {
  const invalid = (detail: string) => [fieldError.invalid(path, models, detail)];
  const parsed: ParsedRange[][] = [];
  for (const m of models) {
    const ranges = parseRanges(record(m) ?? {});
    if (typeof ranges === 'string') return invalid(ranges);
    parsed.push(ranges);
  }
  for (let i = 0; i < models.length; i++) {
    const grade = num(record(models[i])?.grade) ?? 0;
    const ranges = parsed[i]!;
    if (i !== 0 && grade === (num(record(models[i - 1])?.grade) ?? 0)) {
      return invalid('The grade of each models should not be the same');
    }
    if (i !== 0 && parsed[i - 1]!.length !== ranges.length)
      return invalid('The number of resource types should be the same');
    for (let j = 0; j < ranges.length; j++) {
      const r = ranges[j]!;
      if (compareQuantities(r.max, r.min) <= 0)
        return invalid('The max value of each resource must be greater than the min value');
      if (i === 0) {
        if (!isZeroQuantity(r.min)) return invalid('The min value of each resource in the first model should be 0');
      } else if (parsed[i - 1]![j]!.name !== r.name) {
        return invalid('The resource types of each models should be the same');
      } else if (!sameQuantityRepresentation(parsed[i - 1]![j]!.max, r.min)) {
        return invalid('Model intervals for resources must be contiguous and non-overlapping');
      }
      if (i === models.length - 1 && scaledValue(r.max, 0) !== MAX_INT64) {
        return invalid('The max value of each resource in the last model should be MaxInt64');
      }
    }
  }
  return [];
}

/** `ValidateClusterSpec`. */
export function validateClusterSpec(specValue: unknown): FieldError[] {
  const spec = record(specValue) ?? {};
  const errs: FieldError[] = [];
  const syncMode = text(spec.syncMode);
  if (syncMode === '') errs.push(fieldError.required('spec.syncMode'));
  if (!SUPPORTED_SYNC_MODES.includes(syncMode)) {
    errs.push(fieldError.notSupported('spec.syncMode', syncMode, SUPPORTED_SYNC_MODES));
  }
  const apiEndpoint = text(spec.apiEndpoint);
  if (apiEndpoint !== '') errs.push(...validateApiEndpoint(apiEndpoint, 'spec.apiEndpoint'));
  for (const ref of ['secretRef', 'impersonatorSecretRef'] as const) {
    const r = record(spec[ref]);
    if (!r) continue;
    if (text(r.namespace) === '') errs.push(fieldError.required(`spec.${ref}.namespace`));
    if (text(r.name) === '') errs.push(fieldError.required(`spec.${ref}.name`));
  }
  const proxyUrl = text(spec.proxyURL);
  if (proxyUrl !== '') errs.push(...validateProxyUrl(proxyUrl, 'spec.proxyURL'));
  errs.push(...validateTopology(spec));
  errs.push(...validateClusterTaints(list(spec.taints), 'spec.taints'));
  errs.push(...validateResourceModels(list(spec.resourceModels), 'spec.resourceModels'));
  return errs;
}

/**
 * Validates a Cluster (the same rules on create and update): the name (DNS-1123 label, at most 48
 * characters), then {@link validateClusterSpec}. Karmada does not require `apiEndpoint` for Push
 * clusters at admission; neither does this.
 */
export function validateCluster(obj: KubeObject, _old: KubeObject | undefined): FieldError[] {
  const name = obj.metadata?.name ?? '';
  const errs =
    name === '' ? [] : validateClusterName(name).map((msg) => fieldError.invalid('metadata.name', name, msg));
  return uniqueErrors([...errs, ...validateClusterSpec(obj.spec)]);
}

const GI = 1024 ** 3;

function defaultModel(grade: number, cpu: [string, string], memory: [number, number | undefined]): unknown {
  const bytes = (n: number | undefined) => (n === undefined ? MAX_INT64_TEXT : formatBinary(n));
  return {
    grade,
    ranges: [
      { name: 'cpu', min: cpu[0], max: cpu[1] },
      { name: 'memory', min: bytes(memory[0]), max: bytes(memory[1]) },
    ],
  };
}

/** A byte count as Kubernetes prints a BinarySI quantity (`4Gi`, `1Ti`). */
function formatBinary(n: number): string {
  if (n === 0) return '0';
  const suffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
  let value = n;
  let i = 0;
  while (value >= 1024 && value % 1024 === 0 && i < suffixes.length - 1) {
    value /= 1024;
    i++;
  }
  return `${value}${suffixes[i]}`;
}

/**
 * The nine resource models Karmada gives a Cluster created without any (`SetDefaultClusterResourceModels`):
 * cpu [0,1) [1,2) [2,4) … [128,∞) cores and memory [0,4Gi) [4Gi,16Gi) [16Gi,32Gi) … [1Ti,∞).
 */
export function defaultResourceModels(): unknown[] {
  const cpu = ['0', '1', '2', '4', '8', '16', '32', '64', '128'];
  const memory = [0, 4, 16, 32, 64, 128, 256, 512, 1024].map((g) => g * GI);
  return cpu.map((min, grade) =>
    defaultModel(grade, [min, cpu[grade + 1] ?? MAX_INT64_TEXT], [memory[grade]!, memory[grade + 1]]),
  );
}

/**
 * `StandardizeClusterResourceModels`: models sorted by grade, the first grade's minimums set to 0
 * and the last grade's maximums to MaxInt64.
 */
function standardizeResourceModels(models: unknown[]): unknown[] {
  const sorted = [...models].sort((a, b) => (num(record(a)?.grade) ?? 0) - (num(record(b)?.grade) ?? 0));
  for (const range of list(record(sorted[0])?.ranges)) {
    const r = record(range);
    if (r) r.min = '0';
  }
  for (const range of list(record(sorted[sorted.length - 1])?.ranges)) {
    const r = record(range);
    if (r) r.max = MAX_INT64_TEXT;
  }
  return sorted;
}

/**
 * Karmada's Cluster defaulting, returning a new object: on CREATE the nine default resource models
 * when none are given; otherwise (CREATE or UPDATE) the given models standardised; then the
 * canonicalisation Karmada applies after validation — NoExecute taints without `timeAdded` get
 * `ctx.now`, and a deprecated `zone` moves into `zones` when `zones` is empty.
 */
export function defaultCluster(obj: KubeObject, ctx: KarmadaDefaultingContext): KubeObject {
  const out = cloneJson(obj);
  const spec = record(out.spec) ?? {};
  out.spec = spec;
  const models = list(spec.resourceModels);
  if (models.length === 0) {
    if (ctx.operation === 'CREATE') spec.resourceModels = defaultResourceModels();
  } else {
    spec.resourceModels = standardizeResourceModels(models);
  }
  for (const item of list(spec.taints)) {
    const taint = record(item);
    if (taint && text(taint.effect) === 'NoExecute' && !taint.timeAdded) taint.timeAdded = rfc3339Text(ctx.now);
  }
  const zone = text(spec.zone);
  if (zone !== '' && list(spec.zones).length === 0) {
    spec.zones = [zone];
    delete spec.zone;
  }
  return out;
}
