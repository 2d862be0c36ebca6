import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/api/object.ts';
import {
  defaultCluster,
  defaultResourceModels,
  validateKarmadaObject,
} from '../../../../lib/karmada/validation/index.ts';
import { cluster, context, grade, messages } from './support.ts';

const MAX = '9223372036854775807';
const FORM = '; desired format: hostname, hostname:port, IP or IP:port';
const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character " +
  "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const QUALIFIED_NAME =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const models = (...grades: unknown[]) => ({ resourceModels: grades });
const modelError = (m: unknown[], detail: string) =>
  `spec.resourceModels: Invalid value: ${JSON.stringify(m)}: ${detail}`;
const g0 = grade(0, ['0', '1'], ['0', '4Gi']);
const g1 = grade(1, ['1', MAX], ['4Gi', MAX]);

const duplicateGrade = [g0, grade(0, ['1', MAX], ['4Gi', MAX])];
const fewerRanges = [g0, { grade: 1, ranges: [{ name: 'cpu', min: '1', max: MAX }] }];
const swapped = [g0, { grade: 1, ranges: [g1.ranges[1], g1.ranges[0]] }];
const gap = [g0, grade(1, ['2', MAX], ['4Gi', MAX])];
const sameAmountOtherSpelling = [grade(0, ['0', '1000'], ['0', '4Gi']), grade(1, ['1k', MAX], ['4Gi', MAX])];
const emptyRange = [
  grade(0, ['0', '1'], ['0', '4Gi']),
  grade(1, ['1', '1'], ['4Gi', MAX]),
  grade(2, ['1', MAX], ['4Gi', MAX]),
];
const firstNotZero = [grade(0, ['1', '2'], ['0', '4Gi']), grade(1, ['2', MAX], ['4Gi', MAX])];
const lastBounded = [g0, grade(1, ['1', '2'], ['4Gi', '8Gi'])];
const taintsDup = [
  { key: 'a', effect: 'NoSchedule' },
  { key: 'a', effect: 'NoSchedule', value: 'x' },
];

const invalid: { rule: string; obj: KubeObject; errors: string[] }[] = [
  {
    rule: 'name is a DNS-1123 label',
    obj: cluster({}, 'Member_1'),
    errors: [`metadata.name: Invalid value: "Member_1": ${DNS_LABEL}`],
  },
  {
    rule: 'name has no dots',
    obj: cluster({}, 'member.one'),
    errors: ['metadata.name: Invalid value: "member.one": must not contain dots'],
  },
  {
    rule: 'name is at most 48 characters (room for the karmada-es- prefix)',
    obj: cluster({}, 'a'.repeat(49)),
    errors: [`metadata.name: Invalid value: "${'a'.repeat(49)}": must be no more than 48 characters`],
  },
  {
    rule: 'syncMode is required',
    obj: cluster({ syncMode: undefined }),
    errors: ['spec.syncMode: Required value', 'spec.syncMode: Unsupported value: "": supported values: "Pull", "Push"'],
  },
  {
    rule: 'syncMode is Push or Pull',
    obj: cluster({ syncMode: 'Poll' }),
    errors: ['spec.syncMode: Unsupported value: "Poll": supported values: "Pull", "Push"'],
  },
  {
    rule: 'apiEndpoint is a URL (a bare IP:port is not)',
    obj: cluster({ apiEndpoint: '10.0.0.1:6443' }),
    errors: [
      `spec.apiEndpoint: Invalid value: "10.0.0.1:6443": apiEndpoint must be a valid URL: parse "10.0.0.1:6443": first path segment in URL cannot contain colon${FORM}`,
    ],
  },
  {
    rule: 'apiEndpoint has a host',
    obj: cluster({ apiEndpoint: 'localhost:6443' }),
    errors: [`spec.apiEndpoint: Invalid value: "": host must be provided${FORM}`],
  },
  {
    rule: 'apiEndpoint has no user information, fragment or query',
    obj: cluster({ apiEndpoint: 'https://admin:pw@10.0.0.1:6443/?debug=1#top' }),
    errors: [
      'spec.apiEndpoint: Invalid value: "admin:pw": user information is not permitted in the URL',
      'spec.apiEndpoint: Invalid value: "top": fragments are not permitted in the URL',
      'spec.apiEndpoint: Invalid value: "debug=1": query parameters are not permitted in the URL',
    ],
  },
  {
    rule: 'secretRef and impersonatorSecretRef need namespace and name',
    obj: cluster({ secretRef: { name: 'member1' }, impersonatorSecretRef: { namespace: 'karmada-cluster' } }),
    errors: ['spec.secretRef.namespace: Required value', 'spec.impersonatorSecretRef.name: Required value'],
  },
  {
    rule: 'proxyURL scheme is http, https or socks5',
    obj: cluster({ proxyURL: 'ftp://proxy:21' }),
    errors: [
      'spec.proxyURL: Invalid value: "ftp://proxy:21": unsupported scheme "ftp", must be http, https, or socks5',
    ],
  },
  {
    rule: 'provider and region are label values',
    obj: cluster({ provider: 'a b', region: 'us east' }),
    errors: [
      `spec.provider: Invalid value: "a b": ${LABEL_VALUE}`,
      `spec.region: Invalid value: "us east": ${LABEL_VALUE}`,
    ],
  },
  {
    rule: 'zones are label values (reported at spec.Zones)',
    obj: cluster({ zones: ['ok', 'not ok'] }),
    errors: [`spec.Zones: Invalid value: "not ok": ${LABEL_VALUE}`],
  },
  {
    rule: 'zone and zones cannot co-exist (reported at spec.spec)',
    obj: cluster({ zone: 'a', zones: ['b'] }),
    errors: [
      `spec.spec: Invalid value: ${JSON.stringify({ syncMode: 'Push', apiEndpoint: 'https://10.0.0.1:6443', zone: 'a', zones: ['b'] })}: Zone and Zones cannot co-exist`,
    ],
  },
  {
    rule: 'taint keys are label keys, values label values',
    obj: cluster({ taints: [{ key: 'bad key', value: 'bad value', effect: 'NoSchedule' }] }),
    errors: [
      `spec.taints[0].key: Invalid value: "bad key": name part ${QUALIFIED_NAME}`,
      `spec.taints[0].value: Invalid value: "bad value": ${LABEL_VALUE}`,
    ],
  },
  {
    rule: 'taint effect is required',
    obj: cluster({ taints: [{ key: 'a' }] }),
    errors: ['spec.taints[0].effect: Required value'],
  },
  {
    rule: 'taint effect is NoSchedule or NoExecute (PreferNoSchedule is not accepted)',
    obj: cluster({ taints: [{ key: 'a', effect: 'PreferNoSchedule' }] }),
    errors: [
      'spec.taints[0].effect: Unsupported value: "PreferNoSchedule": supported values: "NoSchedule", "NoExecute"',
    ],
  },
  {
    rule: 'taints are unique by key and effect',
    obj: cluster({ taints: taintsDup }),
    errors: [
      `spec.taints[1]: Duplicate value: ${JSON.stringify(taintsDup[1])}: taints must be unique by key and effect pair`,
    ],
  },
  {
    rule: 'resource model grades are distinct',
    obj: cluster(models(...duplicateGrade)),
    errors: [modelError(duplicateGrade, 'The grade of each models should not be the same')],
  },
  {
    rule: 'every grade models the same number of resources',
    obj: cluster(models(...fewerRanges)),
    errors: [modelError(fewerRanges, 'The number of resource types should be the same')],
  },
  {
    rule: 'every grade models the same resources in the same order',
    obj: cluster(models(...swapped)),
    errors: [modelError(swapped, 'The resource types of each models should be the same')],
  },
  {
    rule: "grades are contiguous: each min equals the previous grade's max",
    obj: cluster(models(...gap)),
    errors: [modelError(gap, 'Model intervals for resources must be contiguous and non-overlapping')],
  },
  {
    rule: 'contiguity is compared as Go compares Quantity structs (1000 is not 1k)',
    obj: cluster(models(...sameAmountOtherSpelling)),
    errors: [
      modelError(sameAmountOtherSpelling, 'Model intervals for resources must be contiguous and non-overlapping'),
    ],
  },
  {
    rule: 'max is greater than min',
    obj: cluster(models(...emptyRange)),
    errors: [modelError(emptyRange, 'The max value of each resource must be greater than the min value')],
  },
  {
    rule: 'the first grade starts at 0 (when not standardised by defaulting)',
    obj: cluster(models(...firstNotZero)),
    errors: [modelError(firstNotZero, 'The min value of each resource in the first model should be 0')],
  },
  {
    rule: 'the last grade is unbounded (when not standardised by defaulting)',
    obj: cluster(models(...lastBounded)),
    errors: [modelError(lastBounded, 'The max value of each resource in the last model should be MaxInt64')],
  },
];

const valid: { rule: string; obj: KubeObject }[] = [
  { rule: 'a Pull cluster without apiEndpoint', obj: cluster({ syncMode: 'Pull', apiEndpoint: undefined }) },
  {
    rule: 'a Push cluster without apiEndpoint (Karmada does not require one at admission)',
    obj: cluster({ apiEndpoint: undefined }),
  },
  {
    rule: 'an IPv6 endpoint and a socks5 proxy',
    obj: cluster({ apiEndpoint: 'https://[fd00::1]:6443', proxyURL: 'socks5://proxy:1080' }),
  },
  { rule: 'a 48-character name', obj: cluster({}, 'a'.repeat(48)) },
  {
    rule: 'the same key with two effects',
    obj: cluster({
      taints: [
        { key: 'a', effect: 'NoSchedule' },
        { key: 'a', effect: 'NoExecute' },
      ],
    }),
  },
  { rule: 'the nine default resource models', obj: cluster({ resourceModels: defaultResourceModels() }) },
  {
    rule: 'contiguous models spelt alike (4Gi / 4Gi, 16Gi / 16Gi)',
    obj: cluster(models(g0, grade(1, ['1', '2'], ['4Gi', '16Gi']), grade(2, ['2', MAX], ['16Gi', MAX]))),
  },
];

describe('Cluster validation (Karmada v1.15 aggregated apiserver)', () => {
  for (const c of invalid) {
    it(`rejects: ${c.rule}`, () => {
      assert.deepEqual(messages(validateKarmadaObject(c.obj, undefined)), c.errors);
    });
  }
  for (const c of valid) {
    it(`accepts: ${c.rule}`, () => {
      assert.deepEqual(messages(validateKarmadaObject(c.obj, undefined)), []);
    });
  }
});

describe('Cluster defaulting (Karmada v1.15 strategy and mutation)', () => {
  it('CREATE without resource models gets the nine default grades', () => {
    const out = defaultCluster(cluster(), context());
    const expected = [
      ['0', '1', '0', '4Gi'],
      ['1', '2', '4Gi', '16Gi'],
      ['2', '4', '16Gi', '32Gi'],
      ['4', '8', '32Gi', '64Gi'],
      ['8', '16', '64Gi', '128Gi'],
      ['16', '32', '128Gi', '256Gi'],
      ['32', '64', '256Gi', '512Gi'],
      ['64', '128', '512Gi', '1Ti'],
      ['128', MAX, '1Ti', MAX],
    ].map(([cpuMin, cpuMax, memMin, memMax], i) => grade(i, [cpuMin!, cpuMax!], [memMin!, memMax!]));
    assert.deepEqual((out.spec as { resourceModels: unknown }).resourceModels, expected);
    assert.deepEqual(messages(validateKarmadaObject(out, undefined)), []);
  });

  it('UPDATE without resource models leaves them empty', () => {
    const out = defaultCluster(cluster(), context('UPDATE'));
    assert.equal((out.spec as { resourceModels?: unknown }).resourceModels, undefined);
  });

  it('given models are sorted by grade, the first grade floored at 0 and the last unbounded', () => {
    const out = defaultCluster(
      cluster(
        models(
          grade(2, ['2', '4'], ['16Gi', '32Gi']),
          grade(0, ['1', '1'], ['1Gi', '4Gi']),
          grade(1, ['1', '2'], ['4Gi', '16Gi']),
        ),
      ),
      context('UPDATE'),
    );
    assert.deepEqual((out.spec as { resourceModels: unknown }).resourceModels, [
      grade(0, ['0', '1'], ['0', '4Gi']),
      grade(1, ['1', '2'], ['4Gi', '16Gi']),
      grade(2, ['2', MAX], ['16Gi', MAX]),
    ]);
    assert.deepEqual(messages(validateKarmadaObject(out, undefined)), []);
  });

  it('NoExecute taints without timeAdded get the request time (seconds), others are untouched', () => {
    const out = defaultCluster(
      cluster({
        taints: [
          { key: 'a', effect: 'NoExecute' },
          { key: 'b', effect: 'NoExecute', timeAdded: '2024-01-01T00:00:00Z' },
          { key: 'c', effect: 'NoSchedule' },
        ],
      }),
      context(),
    );
    assert.deepEqual((out.spec as { taints: unknown }).taints, [
      { key: 'a', effect: 'NoExecute', timeAdded: '2025-09-01T00:00:00Z' },
      { key: 'b', effect: 'NoExecute', timeAdded: '2024-01-01T00:00:00Z' },
      { key: 'c', effect: 'NoSchedule' },
    ]);
  });

  it('the deprecated zone moves into zones', () => {
    const out = defaultCluster(cluster({ zone: 'us-east-1a', resourceModels: [g0, g1] }), context());
    const spec = out.spec as Record<string, unknown>;
    assert.deepEqual([spec.zone, spec.zones], [undefined, ['us-east-1a']]);
  });
});
