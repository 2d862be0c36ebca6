import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/api/object.ts';
import { defaultKarmadaObject, validateKarmadaObject } from '../../../../lib/karmada/validation/index.ts';
import { context, messages, overridePolicy, rule } from './support.ts';

const POINTER = 'JSON pointer must be empty or start with a "/';
const QUALIFIED_NAME =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const both = {
  fieldPath: '/data/config',
  json: [{ subPath: '/a', operator: 'remove' }],
  yaml: [{ subPath: '/b', operator: 'remove' }],
};
const legacyTarget = { clusterNames: ['member1'] };
const legacyOverriders = { plaintext: [{ path: '/spec/replicas', operator: 'replace', value: 2 }] };
const R = 'spec.overrideRules[0].overriders';

const invalid: { rule: string; obj: KubeObject; errors: string[] }[] = [
  {
    rule: 'annotationsOverrider keys are qualified names (case-insensitive)',
    obj: overridePolicy({
      overrideRules: [
        rule({ annotationsOverrider: [{ operator: 'add', value: { 'Ok/Upper': 'v', 'bad key': 'v' } }] }),
      ],
    }),
    errors: [`${R}.annotationsOverrider[0].value: Invalid value: "bad key": name part ${QUALIFIED_NAME}`],
  },
  {
    rule: 'annotationsOverrider values are at most 256 KiB in total',
    obj: overridePolicy({
      overrideRules: [rule({ annotationsOverrider: [{ operator: 'add', value: { big: 'x'.repeat(262142) } }] })],
    }),
    errors: [`${R}.annotationsOverrider[0].value: Too long: may not be more than 262144 bytes`],
  },
  {
    rule: 'labelsOverrider keys are label keys and values label values',
    obj: overridePolicy({
      overrideRules: [rule({ labelsOverrider: [{ operator: 'add', value: { '-bad': 'ok', good: 'bad value' } }] })],
    }),
    errors: [
      `${R}.labelsOverrider[0].value: Invalid value: "-bad": name part ${QUALIFIED_NAME}`,
      `${R}.labelsOverrider[0].value: Invalid value: "bad value": ${LABEL_VALUE}`,
    ],
  },
  {
    rule: 'imageOverrider predicate path is a JSON pointer',
    obj: overridePolicy({
      overrideRules: [
        rule({
          imageOverrider: [
            { predicate: { path: 'spec/template' }, component: 'Registry', operator: 'replace', value: 'r' },
          ],
        }),
      ],
    }),
    errors: [`${R}.imageOverrider[0].predicate.path: Invalid value: "spec/template": ${POINTER}`],
  },
  {
    rule: 'fieldOverrider sets json or yaml, not both',
    obj: overridePolicy({ overrideRules: [rule({ fieldOverrider: [both] })] }),
    errors: [
      `${R}.fieldOverrider[0]: Invalid value: ${JSON.stringify(both)}: FieldOverrider has both YAML and JSON set. Only one is allowed`,
    ],
  },
  {
    rule: 'fieldOverrider fieldPath is a JSON pointer',
    obj: overridePolicy({
      overrideRules: [
        rule({ fieldOverrider: [{ fieldPath: 'data.x', yaml: [{ subPath: '/a', operator: 'remove' }] }] }),
      ],
    }),
    errors: [`${R}.fieldOverrider[0].fieldPath: Invalid value: "data.x": ${POINTER}`],
  },
  {
    rule: 'fieldOverrider json subPath is a JSON pointer',
    obj: overridePolicy({
      overrideRules: [
        rule({ fieldOverrider: [{ fieldPath: '/data/x', json: [{ subPath: 'a', operator: 'remove' }] }] }),
      ],
    }),
    errors: [`${R}.fieldOverrider[0].json[0].subPath: Invalid value: "a": ${POINTER}`],
  },
  {
    rule: 'fieldOverrider yaml add/replace need a value',
    obj: overridePolicy({
      overrideRules: [
        rule({
          fieldOverrider: [
            {
              fieldPath: '/data/x',
              yaml: [
                { subPath: '/a', operator: 'add' },
                { subPath: '/b', operator: 'replace', value: null },
              ],
            },
          ],
        }),
      ],
    }),
    errors: [
      `${R}.fieldOverrider[0].yaml[0].value: Invalid value: null: value is required for add or replace operation`,
      `${R}.fieldOverrider[0].yaml[1].value: Invalid value: null: value is required for add or replace operation`,
    ],
  },
  {
    rule: 'fieldOverrider json remove takes no value',
    obj: overridePolicy({
      overrideRules: [
        rule({ fieldOverrider: [{ fieldPath: '/data/x', json: [{ subPath: '/a', operator: 'remove', value: 'x' }] }] }),
      ],
    }),
    errors: [`${R}.fieldOverrider[0].json[0].value: Invalid value: "x": value is not allowed for remove operation`],
  },
  {
    rule: 'overrideRules targetCluster field selector',
    obj: overridePolicy({
      overrideRules: [
        rule({}, { fieldSelector: { matchExpressions: [{ key: 'region', operator: 'Gt', values: ['1'] }] } }),
      ],
    }),
    errors: [
      'spec.overrideRules[0].targetCluster.fieldSelector: Invalid value: {"matchExpressions":[{"key":"region","operator":"Gt","values":["1"]}]}: unsupported operator "Gt", must be In or NotIn',
    ],
  },
  {
    rule: 'deprecated targetCluster cannot co-exist with overrideRules',
    obj: overridePolicy({ targetCluster: legacyTarget, overrideRules: [] }),
    errors: [
      `spec.targetCluster: Invalid value: ${JSON.stringify(legacyTarget)}: overrideRules and targetCluster can't co-exist`,
    ],
  },
  {
    rule: 'deprecated overriders cannot co-exist with overrideRules',
    obj: overridePolicy({ overriders: legacyOverriders, overrideRules: [rule({})] }),
    errors: [
      `spec.overriders: Invalid value: ${JSON.stringify(legacyOverriders)}: overrideRules and overriders can't co-exist`,
    ],
  },
  {
    rule: 'deprecated targetCluster field selector',
    obj: overridePolicy({
      targetCluster: { fieldSelector: { matchExpressions: [{ key: 'name', operator: 'In', values: ['a'] }] } },
      overriders: {},
    }),
    errors: [
      'spec.targetCluster.fieldSelector: Invalid value: {"matchExpressions":[{"key":"name","operator":"In","values":["a"]}]}: unsupported key "name", must be provider, region, or zone',
    ],
  },
  {
    rule: 'ClusterOverridePolicy: the same rules apply',
    obj: overridePolicy({ overrideRules: [rule({ fieldOverrider: [both] })] }, 'ClusterOverridePolicy'),
    errors: [
      `${R}.fieldOverrider[0]: Invalid value: ${JSON.stringify(both)}: FieldOverrider has both YAML and JSON set. Only one is allowed`,
    ],
  },
];

const valid: { rule: string; obj: KubeObject }[] = [
  {
    rule: 'the deprecated targetCluster + overriders form alone',
    obj: overridePolicy({ targetCluster: legacyTarget, overriders: legacyOverriders }),
  },
  {
    rule: 'deprecated fieldOverrider next to overrideRules (Karmada does not count it)',
    obj: overridePolicy({ overriders: { fieldOverrider: [{ fieldPath: '/a', json: [] }] }, overrideRules: [rule({})] }),
  },
  {
    rule: 'no selectors and no rules (matches everything, overrides nothing)',
    obj: overridePolicy({ resourceSelectors: undefined }),
  },
  {
    rule: 'every overrider well formed',
    obj: overridePolicy({
      overrideRules: [
        rule({
          plaintext: [{ path: '/spec/replicas', operator: 'replace', value: 3 }],
          imageOverrider: [
            {
              predicate: { path: '/spec/template/spec/containers/0/image' },
              component: 'Tag',
              operator: 'replace',
              value: 'v2',
            },
          ],
          commandOverrider: [{ containerName: 'nginx', operator: 'add', value: ['--verbose'] }],
          argsOverrider: [{ containerName: 'nginx', operator: 'remove', value: ['--x'] }],
          labelsOverrider: [{ operator: 'remove', value: { env: '' } }],
          annotationsOverrider: [{ operator: 'replace', value: { 'Example.com/Owner': 'team a' } }],
          fieldOverrider: [
            { fieldPath: '/data/config.yaml', yaml: [{ subPath: '/server/port', operator: 'replace', value: 8080 }] },
            {
              fieldPath: '/data/config.json',
              json: [
                { subPath: '', operator: 'remove' },
                { subPath: '/x', operator: 'add', value: '' },
              ],
            },
          ],
        }),
      ],
    }),
  },
];

describe('OverridePolicy / ClusterOverridePolicy validation (Karmada v1.15 webhook)', () => {
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

describe('OverridePolicy defaulting (Karmada v1.15 mutating webhook)', () => {
  it('fills selector namespaces with the policy namespace', () => {
    const out = defaultKarmadaObject(overridePolicy({}), context());
    assert.deepEqual((out.spec as { resourceSelectors: unknown[] }).resourceSelectors, [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx', namespace: 'default' },
    ]);
  });

  it('ClusterOverridePolicy has no mutating webhook', () => {
    const cop = overridePolicy({}, 'ClusterOverridePolicy');
    assert.deepEqual(defaultKarmadaObject(cop, context()), cop);
  });
});
