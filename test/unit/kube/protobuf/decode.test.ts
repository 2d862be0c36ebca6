import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  decodeKubernetesProtobuf,
  isKubernetesProtobuf,
  ProtobufDecodeError,
} from '../../../../lib/kube/protobuf/decode.ts';

// Fixtures: real request bodies kubectl (v1.32) sent to a capture server, and the JSON the same command prints
// with --dry-run=client -o json. Regenerate with test/unit/kube/protobuf/capture-fixtures.mjs.
const FIXTURES = new URL('../../../fixtures/protobuf/', import.meta.url);
const bin = (name: string): Uint8Array => readFileSync(new URL(`${name}.bin`, FIXTURES));
const json = (name: string): unknown => JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8'));

/**
 * kubectl's client-side JSON writes `null` where the protobuf wire has nothing to say:
 *  - `metadata.creationTimestamp: null` — kubectl 1.32's ObjectMeta lacks the `omitzero` that current
 *    apimachinery puts on creationTimestamp (and that the decoder's tables follow), so Go's zero time is
 *    printed as null; on the wire it is an empty Time message.
 *  - nil slices of fields without `omitempty` (e.g. ClusterRole `rules: null`) — protobuf cannot tell a nil
 *    slice from an absent one, and the decoder omits absent fields.
 * Both mean "unset" to the API server, so drop null-valued keys from the expected JSON before comparing.
 */
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, dropNulls(v)]),
    );
  }
  return value;
}

const KUBECTL_CREATE = [
  'namespace',
  'configmap',
  'secret-generic',
  'secret-docker-registry',
  'secret-tls',
  'serviceaccount',
  'deployment',
  'deployment-multi',
  'job',
  'cronjob',
  'service-clusterip',
  'service-clusterip-headless',
  'service-nodeport',
  'service-loadbalancer',
  'service-externalname',
  'role',
  'clusterrole',
  'clusterrole-aggregate',
  'rolebinding',
  'clusterrolebinding',
  'quota',
  'priorityclass',
  'pdb',
  'pdb-percent',
  'ingress',
];

describe('decodeKubernetesProtobuf: kubectl create bodies', () => {
  for (const name of KUBECTL_CREATE) {
    it(`${name}.bin decodes to kubectl's JSON for the same command`, () => {
      const body = bin(name);
      assert.equal(isKubernetesProtobuf(body), true);
      assert.deepEqual(decodeKubernetesProtobuf(body), dropNulls(json(name)));
    });
  }

  it('puts apiVersion and kind first', () => {
    assert.deepEqual(Object.keys(decodeKubernetesProtobuf(bin('deployment'))), [
      'apiVersion',
      'kind',
      'metadata',
      'spec',
      'status',
    ]);
  });

  it('keeps zero values of pointer fields and drops those of omitempty value fields', () => {
    const obj = decodeKubernetesProtobuf(bin('deployment-multi')) as {
      metadata: Record<string, unknown>;
      spec: { replicas: number };
    };
    assert.equal(obj.spec.replicas, 0); // *int32: present on the wire, so set
    assert.deepEqual(Object.keys(obj.metadata), ['name', 'labels']); // generateName "", uid "", … were on the wire
  });
});

// `kubectl auth` has no client-side dry run; these are the objects kubectl builds (Go's JSON for them, minus
// creationTimestamp: null — see dropNulls).
describe('decodeKubernetesProtobuf: kubectl auth bodies', () => {
  it('auth whoami → SelfSubjectReview', () => {
    assert.deepEqual(decodeKubernetesProtobuf(bin('auth-whoami')), {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
      metadata: {},
      status: { userInfo: {} },
    });
  });

  it('auth can-i delete deployments -n prod → SelfSubjectAccessReview with resourceAttributes', () => {
    assert.deepEqual(decodeKubernetesProtobuf(bin('auth-can-i')), {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: { resourceAttributes: { namespace: 'prod', verb: 'delete', group: 'apps', resource: 'deployments' } },
      status: { allowed: false }, // `json:"allowed"` has no omitempty
    });
  });

  it('auth can-i get pods/web-0 --subresource=log → name and subresource', () => {
    assert.deepEqual(decodeKubernetesProtobuf(bin('auth-can-i-subresource')), {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: {
        resourceAttributes: { namespace: 'prod', verb: 'get', resource: 'pods', subresource: 'log', name: 'web-0' },
      },
      status: { allowed: false },
    });
  });

  it('auth can-i get /healthz → nonResourceAttributes', () => {
    assert.deepEqual(decodeKubernetesProtobuf(bin('auth-can-i-nonresource')), {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
      status: { allowed: false },
    });
  });

  it('auth can-i --list -n prod → SelfSubjectRulesReview', () => {
    assert.deepEqual(decodeKubernetesProtobuf(bin('auth-can-i-list')), {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: {},
      spec: { namespace: 'prod' },
      status: { incomplete: false },
    });
  });
});

// ---- a tiny protobuf encoder for hand-built bodies -------------------------------------------------------------

function varint(n: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}
const cat = (...parts: (Uint8Array | number[])[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));
/** A length-delimited field (string, bytes or message). */
const ld = (field: number, payload: string | Uint8Array): Uint8Array => {
  const bytes = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
  return cat(varint((field << 3) | 2), varint(bytes.length), bytes);
};
/** A varint field. */
const vi = (field: number, n: number | bigint): Uint8Array => cat(varint(field << 3), varint(n));
const MAGIC = [0x6b, 0x38, 0x73, 0x00];
const typeMeta = (apiVersion: string, kind: string) => ld(1, cat(ld(1, apiVersion), ld(2, kind)));
const body = (apiVersion: string, kind: string, raw: Uint8Array, ...extra: Uint8Array[]): Uint8Array =>
  cat(MAGIC, typeMeta(apiVersion, kind), ld(2, raw), ...extra);
const meta = (...fields: Uint8Array[]) => ld(1, cat(...fields));

describe('decodeKubernetesProtobuf: field semantics', () => {
  it('Time: seconds → RFC3339; empty → null (omitted for creationTimestamp, kept for deletionTimestamp)', () => {
    const t = 1767323045; // 2026-01-02T03:04:05Z
    const obj = decodeKubernetesProtobuf(
      body('v1', 'Namespace', meta(ld(1, 'a'), ld(8, cat(vi(1, t), vi(2, 999))), ld(9, new Uint8Array()))),
    );
    assert.deepEqual(obj.metadata, { name: 'a', creationTimestamp: '2026-01-02T03:04:05Z', deletionTimestamp: null });
    const zero = decodeKubernetesProtobuf(body('v1', 'Namespace', meta(ld(1, 'a'), ld(8, new Uint8Array()))));
    assert.deepEqual(zero.metadata, { name: 'a' });
    // Go's zero time.Time, written explicitly, is also null.
    const goZero = decodeKubernetesProtobuf(body('v1', 'Namespace', meta(ld(9, vi(1, -62135596800)))));
    assert.deepEqual(goZero.metadata, { deletionTimestamp: null });
  });

  it('merges a singular message field that occurs twice, last scalar wins', () => {
    const obj = decodeKubernetesProtobuf(
      body('v1', 'ConfigMap', cat(meta(ld(1, 'first')), meta(ld(3, 'ns')), meta(ld(1, 'cm')))),
    );
    assert.deepEqual(obj, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' } });
  });

  it('maps: entries become own keys (also "__proto__"); a missing value is the zero value', () => {
    const entry = (k: string, v?: string) => ld(11, cat(ld(1, k), ...(v === undefined ? [] : [ld(2, v)])));
    const obj = decodeKubernetesProtobuf(
      body('v1', 'ConfigMap', meta(entry('__proto__', 'x'), entry('app', 'web'), entry('empty'))),
    );
    const labels = (obj.metadata as { labels: Record<string, string> }).labels;
    assert.equal(Object.getPrototypeOf(labels), Object.prototype);
    assert.deepEqual(Object.keys(labels), ['__proto__', 'app', 'empty']);
    assert.equal(Object.getOwnPropertyDescriptor(labels, '__proto__')?.value, 'x');
    assert.equal(labels.empty, '');
  });

  it('repeated scalars: packed and unpacked encodings both decode', () => {
    const podSpec = (...securityContext: Uint8Array[]) =>
      body('apps/v1', 'Deployment', ld(2, ld(3, ld(2, ld(14, cat(...securityContext))))));
    const unpacked = decodeKubernetesProtobuf(podSpec(vi(4, 1000), vi(4, 2000)));
    const packed = decodeKubernetesProtobuf(podSpec(ld(4, cat(varint(1000), varint(2000)))));
    const expected = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      spec: { template: { spec: { securityContext: { supplementalGroups: [1000, 2000] } } } },
    };
    assert.deepEqual(unpacked, expected);
    assert.deepEqual(packed, expected);
  });

  it('negative int32 (sign-extended 10-byte varint) and inline VolumeSource with a Quantity', () => {
    const pc = decodeKubernetesProtobuf(body('scheduling.k8s.io/v1', 'PriorityClass', vi(2, -5)));
    assert.equal(pc.value, -5);
    const volume = ld(1, cat(ld(1, 'cache'), ld(2, ld(2, ld(2, ld(1, '1Gi'))))));
    const deploy = decodeKubernetesProtobuf(body('apps/v1', 'Deployment', ld(2, ld(3, ld(2, volume)))));
    assert.deepEqual(deploy.spec, {
      template: { spec: { volumes: [{ name: 'cache', emptyDir: { sizeLimit: '1Gi' } }] } },
    });
  });

  it('managedFields: fieldsV1 holds JSON; UserInfo extra is a map of string lists', () => {
    const fields = '{"f:metadata":{"f:labels":{".":{}}}}';
    const obj = decodeKubernetesProtobuf(
      body(
        'authentication.k8s.io/v1',
        'SelfSubjectReview',
        cat(
          meta(ld(17, cat(ld(1, 'kubectl'), ld(2, 'Update'), ld(6, 'FieldsV1'), ld(7, ld(1, fields))))),
          ld(2, ld(1, cat(ld(1, 'alice'), ld(4, cat(ld(1, 'scopes'), ld(2, cat(ld(1, 'a'), ld(1, 'b')))))))),
        ),
      ),
    );
    assert.deepEqual(obj, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
      metadata: {
        managedFields: [
          { manager: 'kubectl', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: JSON.parse(fields) as unknown },
        ],
      },
      status: { userInfo: { username: 'alice', extra: { scopes: ['a', 'b'] } } },
    });
  });
});

describe('decodeKubernetesProtobuf: errors', () => {
  const fails = (bytes: Uint8Array, message: RegExp | string) =>
    assert.throws(
      () => decodeKubernetesProtobuf(bytes),
      (err: unknown) => {
        assert.ok(err instanceof ProtobufDecodeError, `expected ProtobufDecodeError, got ${String(err)}`);
        assert.equal(err.name, 'ProtobufDecodeError');
        if (typeof message === 'string') assert.equal(err.message, message);
        else assert.match(err.message, message);
        return true;
      },
    );

  it('rejects a body without the k8s\\0 prefix', () => {
    const jsonBody = new TextEncoder().encode('{"kind":"Namespace"}');
    assert.equal(isKubernetesProtobuf(jsonBody), false);
    fails(jsonBody, /does not start with the Kubernetes prefix/);
    assert.equal(isKubernetesProtobuf(Uint8Array.of(0x6b, 0x38, 0x73)), false);
    fails(Uint8Array.of(0x6b, 0x38, 0x73), /too short/);
  });

  it('rejects truncated bodies', () => {
    const whole = bin('deployment');
    fails(whole.subarray(0, whole.length - 7), /malformed protobuf envelope: length \d+ at byte \d+ runs past the end/);
    // The envelope is intact but the object inside it is cut short.
    const raw = cat(meta(ld(1, 'web')), ld(2, cat(vi(1, 3))));
    fails(body('apps/v1', 'Deployment', raw.subarray(0, raw.length - 1)), /apps\/v1 Deployment: malformed Deployment/);
    fails(cat(MAGIC, [0x0a, 0x80]), /truncated varint/);
  });

  it('rejects kinds it has no tables for', () => {
    fails(
      body('apps/v1', 'StatefulSet', new Uint8Array()),
      'protobuf bodies of apps/v1 StatefulSet are not supported: send JSON or YAML (kubectl apply -f)',
    );
    fails(body('v2', 'Namespace', new Uint8Array()), /protobuf bodies of v2 Namespace are not supported/);
    fails(cat(MAGIC, ld(2, new Uint8Array())), /no apiVersion and kind/);
  });

  it('rejects unknown field numbers, naming the message and where it is', () => {
    fails(
      body('v1', 'Namespace', cat(meta(ld(1, 'a')), ld(99, 'x'))),
      /^v1 Namespace: unknown field number 99 \(wire type 2\) in message Namespace;/,
    );
    fails(
      body('apps/v1', 'Deployment', ld(2, ld(3, ld(2, cat(ld(2, ld(1, 'c')), vi(9999, 1)))))),
      /^apps\/v1 Deployment at spec\.template\.spec: unknown field number 9999 \(wire type 0\) in message PodSpec;/,
    );
    fails(
      body('apps/v1', 'Deployment', ld(2, ld(3, ld(2, ld(1, cat(ld(1, 'v'), ld(2, ld(999, 'x')))))))),
      /at spec\.template\.spec\.volumes\[0\]\.volumeSource: unknown field number 999 .* in message VolumeSource/,
    );
    fails(
      body('v1', 'Namespace', meta(ld(11, cat(ld(1, 'k'), ld(3, 'v'))))),
      /at metadata\.labels: map entry has unknown field number 3/,
    );
    fails(cat(MAGIC, typeMeta('v1', 'Namespace'), ld(7, 'x')), /runtime\.Unknown\) has unknown field number 7/);
  });

  it('rejects a field with the wrong wire type', () => {
    fails(
      body('v1', 'Namespace', meta(vi(1, 5))),
      /at metadata\.name: field 1 of ObjectMeta has wire type 0, expected 2/,
    );
  });

  it('rejects content encodings and foreign content types', () => {
    fails(body('v1', 'Namespace', new Uint8Array(), ld(3, 'gzip')), /contentEncoding "gzip", which is not supported/);
    fails(
      body('v1', 'Namespace', new Uint8Array(), ld(4, 'application/json')),
      /declares contentType "application\/json"/,
    );
    // kubectl writes both as empty strings, which is fine.
    assert.deepEqual(decodeKubernetesProtobuf(body('v1', 'Namespace', new Uint8Array(), ld(3, ''), ld(4, ''))), {
      apiVersion: 'v1',
      kind: 'Namespace',
    });
  });

  it('rejects an envelope without an object, bad IntOrString types and int64 beyond 2^53', () => {
    fails(cat(MAGIC, typeMeta('v1', 'Namespace')), /carries no object/);
    fails(
      body('policy/v1', 'PodDisruptionBudget', ld(2, ld(1, cat(vi(1, 7))))),
      /at spec\.minAvailable: IntOrString has invalid type 7/,
    );
    fails(body('v1', 'Namespace', meta(vi(7, 2n ** 60n))), /outside the range a JSON number holds exactly/);
  });
});
