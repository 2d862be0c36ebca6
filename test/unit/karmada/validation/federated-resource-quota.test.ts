import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/api/object.ts';
import { validateKarmadaObject } from '../../../../lib/karmada/validation/index.ts';
import { federatedResourceQuota, messages } from './support.ts';

const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character " +
  "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const QUALIFIED_NAME =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const invalid: { rule: string; obj: KubeObject; errors: string[] }[] = [
  {
    rule: 'overall is at least the sum of the static assignments',
    obj: federatedResourceQuota({
      overall: { cpu: '1', memory: '8Gi' },
      staticAssignments: [
        { clusterName: 'member1', hard: { cpu: '600m', memory: '4Gi' } },
        { clusterName: 'member2', hard: { cpu: '0.5', memory: '4096Mi' } },
      ],
    }),
    errors: ['spec.overall[cpu]: Invalid value: "1": overall is less than assignments'],
  },
  {
    rule: 'assignments only use resources overall lists',
    obj: federatedResourceQuota({
      overall: { cpu: '2' },
      staticAssignments: [{ clusterName: 'member1', hard: { cpu: '1', pods: '10' } }],
    }),
    errors: [
      'spec.staticAssignments[0].hard[pods]: Invalid value: "pods": assignment resourceName is not exist in overall',
    ],
  },
  {
    rule: 'assignment cluster names are valid cluster names',
    obj: federatedResourceQuota({
      overall: { cpu: '2' },
      staticAssignments: [
        { clusterName: 'Member1', hard: {} },
        { clusterName: '', hard: {} },
      ],
    }),
    errors: [
      `spec.staticAssignments[0].clusterName: Invalid value: "Member1": ${DNS_LABEL}`,
      'spec.staticAssignments[1].clusterName: Invalid value: "": must be not empty',
    ],
  },
  {
    rule: 'resource names are standard quota resources or fully qualified',
    obj: federatedResourceQuota({ overall: { gpu: '1', storage: '1Ti', 'bad name': '1' } }),
    errors: [
      'spec.overall[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.overall[gpu]: Invalid value: "gpu": must be a standard resource for quota',
      'spec.overall[storage]: Invalid value: "storage": must be a standard resource for quota',
      `spec.overall[bad name]: Invalid value: "bad name": name part ${QUALIFIED_NAME}`,
      'spec.overall[bad name]: Invalid value: "bad name": must be a standard resource for quota',
    ],
  },
  {
    rule: 'quantities are not negative (a negative overall is also below its empty assignment sum)',
    obj: federatedResourceQuota({ overall: { memory: '-1Gi' } }),
    errors: [
      'spec.overall[memory]: Invalid value: "-1Gi": must be greater than or equal to 0',
      'spec.overall[memory]: Invalid value: "-1Gi": overall is less than assignments',
    ],
  },
  {
    rule: 'object-count and extended resources are integers',
    obj: federatedResourceQuota({ overall: { pods: '1500m', 'example.com/gpu': '0.5' } }),
    errors: [
      'spec.overall[pods]: Invalid value: "1500m": must be an integer',
      'spec.overall[example.com/gpu]: Invalid value: "500m": must be an integer',
    ],
  },
  {
    rule: 'quantities parse',
    obj: federatedResourceQuota({ overall: { cpu: 'lots' } }),
    errors: [
      `spec.overall[cpu]: Invalid value: "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    ],
  },
  {
    rule: 'the name fits a label (63 characters)',
    obj: {
      ...federatedResourceQuota({ overall: { cpu: '1' } }),
      metadata: { name: 'q'.repeat(64), namespace: 'team-a' },
    },
    errors: [`metadata.name: Invalid value: "${'q'.repeat(64)}": must be no more than 63 characters`],
  },
  {
    rule: 'status resource lists and cluster names are validated too',
    obj: federatedResourceQuota(
      { overall: { cpu: '1' } },
      {
        overallUsed: { cpu: '-1' },
        aggregatedStatus: [{ clusterName: 'm_1', hard: { cpu: '1' }, used: { pods: '0.5' } }],
      },
    ),
    errors: [
      'status.overallUsed[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      `status.aggregatedStatus[0].clusterName: Invalid value: "m_1": ${DNS_LABEL}`,
      'status.aggregatedStatus[0].used[pods]: Invalid value: "500m": must be an integer',
    ],
  },
];

const valid: { rule: string; obj: KubeObject }[] = [
  {
    rule: 'assignments summing exactly to overall (mixed units)',
    obj: federatedResourceQuota({
      overall: { cpu: '1', memory: '8Gi', 'requests.storage': '1Ti', 'hugepages-2Mi': '1Gi' },
      staticAssignments: [
        { clusterName: 'member1', hard: { cpu: '500m', memory: '4Gi' } },
        { clusterName: 'member2', hard: { cpu: 0.5, memory: '4096Mi' } },
      ],
    }),
  },
  {
    rule: 'the same cluster assigned twice (Karmada does not check uniqueness)',
    obj: federatedResourceQuota({
      overall: { cpu: '2' },
      staticAssignments: [
        { clusterName: 'member1', hard: { cpu: '1' } },
        { clusterName: 'member1', hard: { cpu: '1' } },
      ],
    }),
  },
  {
    rule: 'overall without assignments',
    obj: federatedResourceQuota({ overall: { pods: '100', 'count/deployments.apps': '3' } }),
  },
];

describe('FederatedResourceQuota validation (Karmada v1.15 webhook)', () => {
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
