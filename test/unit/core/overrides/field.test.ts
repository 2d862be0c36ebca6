/**
 * FieldOverrider: JSON and YAML documents inside a string field (Karmada v1.12+, `applyFieldOverriders`),
 * including the v1.12 release notes' ConfigMap example.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applicablePolicies,
  applyOverrides,
  patchJsonText,
  patchYamlText,
  type SubPatchOperation,
} from '../../../../lib/core/overrides/index.ts';
import type { KubeObject } from '../../../../lib/core/model/types.ts';
import { cluster, op, rule } from './fixtures.ts';

describe('fieldOverrider: the v1.12 release notes ConfigMap example (seed)', () => {
  // Verbatim from the seed: example-configmap, example-overridepolicy and the member1 result.
  const template: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'example-configmap', namespace: 'default' },
    data: {
      'config.yaml': 'app:\n  database:\n    port: 5432\n    ip: 127.0.0.1\n    name: example\n    zone: zone1\n',
    },
  };
  const policy = op('example', {
    resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'example-configmap' }],
    overrideRules: [
      {
        overriders: {
          fieldOverrider: [
            {
              fieldPath: '/data/config.yaml',
              yaml: [{ subPath: '/app/database/port', operator: 'replace', value: '3306' }],
            },
          ],
        },
        targetCluster: { clusterNames: ['member1'] },
      },
    ],
  });
  const seedResult = 'app:\n  database:\n    port: 3306\n    ip: 127.0.0.1\n    name: example\n    zone: zone1\n';

  it('member1 gets exactly the seed result: port 3306, key order and layout kept', () => {
    const before = structuredClone(template);
    const rules = applicablePolicies({ template, cluster: cluster('member1'), overridePolicies: [policy] });
    const result = applyOverrides(template, rules);
    assert.ok(result.ok, result.ok ? '' : result.error);
    assert.equal((result.object.data as Record<string, string>)['config.yaml'], seedResult);
    assert.deepEqual(result.object.metadata, template.metadata);
    assert.deepEqual(
      result.applied.map((a) => a.policy.name),
      ['example'],
    );
    assert.deepEqual(template, before, 'the template is not modified');
  });

  it('member2 (not in targetCluster) keeps the original', () => {
    const rules = applicablePolicies({ template, cluster: cluster('member2'), overridePolicies: [policy] });
    assert.deepEqual(rules, []);
    const result = applyOverrides(template, rules);
    assert.ok(result.ok);
    assert.deepEqual(result.object, template);
  });
});

describe('fieldOverrider: YAML sub-documents (applyRawYAMLPatch)', () => {
  const cases: [string, string, SubPatchOperation[], string][] = [
    [
      'Karmada Test_..._ApplyFieldOverriderPolicies_YAML: replace /key/key1',
      '\nkey: \n  key1: value\n',
      [{ subPath: '/key/key1', operator: 'replace', value: 'updated_value' }],
      'key:\n  key1: updated_value\n', // exactly Karmada's wantData
    ],
    [
      'add a new key appends it after the existing ones',
      'app:\n  port: 5432\n',
      [{ subPath: '/app/host', operator: 'add', value: 'db.example' }],
      'app:\n  port: 5432\n  host: db.example\n',
    ],
    [
      'add an object value renders it as a block mapping',
      'app:\n  port: 5432\n',
      [{ subPath: '/app/tls', operator: 'add', value: { enabled: true, ca: 'x' } }],
      'app:\n  port: 5432\n  tls:\n    enabled: true\n    ca: x\n',
    ],
    [
      'remove a key keeps the rest in order',
      'a: 1\nb: 2\nc: 3\n',
      [{ subPath: '/b', operator: 'remove' }],
      'a: 1\nc: 3\n',
    ],
    [
      'comments survive an edit',
      '# settings\napp:\n  port: 5432 # default port\n',
      [{ subPath: '/app/port', operator: 'replace', value: 6543 }],
      '# settings\napp:\n  port: 6543 # default port\n',
    ],
    [
      'a string replacing a string keeps its quoting',
      'name: "example"\n',
      [{ subPath: '/name', operator: 'replace', value: 'prod' }],
      'name: "prod"\n',
    ],
    [
      'a string that is not a number replacing a number stays a string',
      'port: 5432\n',
      [{ subPath: '/port', operator: 'replace', value: 'auto' }],
      'port: auto\n',
    ],
    [
      'a numeric string replacing a quoted string stays a (quoted) string',
      'port: "5432"\n',
      [{ subPath: '/port', operator: 'replace', value: '3306' }],
      'port: "3306"\n',
    ],
    [
      'a boolean string replacing a boolean keeps the boolean type',
      'debug: false\n',
      [{ subPath: '/debug', operator: 'replace', value: 'true' }],
      'debug: true\n',
    ],
    [
      'sequences: add with "-" appends, unindented style of the source kept',
      'hosts:\n- a\n- b\n',
      [{ subPath: '/hosts/-', operator: 'add', value: 'c' }],
      'hosts:\n- a\n- b\n- c\n',
    ],
    [
      'sequences: indented style of the source kept, insert at index',
      'hosts:\n  - a\n  - c\n',
      [{ subPath: '/hosts/1', operator: 'add', value: 'b' }],
      'hosts:\n  - a\n  - b\n  - c\n',
    ],
    [
      'several operations apply in order',
      'a: 1\n',
      [
        { subPath: '/b', operator: 'add', value: 2 },
        { subPath: '/b', operator: 'replace', value: 3 },
        { subPath: '/a', operator: 'remove' },
      ],
      'b: 3\n',
    ],
    [
      'no trailing newline in, none out (a `|-` block in the ConfigMap stays `|-`)',
      'a: 1',
      [{ subPath: '/a', operator: 'replace', value: 2 }],
      'a: 2',
    ],
    [
      'aliases: patched value re-serialised when the tree cannot be edited in place',
      'base: &b\n  x: 1\nuse: *b\n',
      [{ subPath: '/use/x', operator: 'replace', value: 2 }],
      'base:\n  x: 1\nuse:\n  x: 2\n',
    ],
  ];
  for (const [name, text, ops, want] of cases) {
    it(name, () => {
      const result = patchYamlText(text, ops);
      assert.ok(result.ok, result.ok ? '' : result.error);
      assert.equal(result.text, want);
    });
  }
});

describe('fieldOverrider: JSON sub-documents (applyRawJSONPatch)', () => {
  const cases: [string, string, SubPatchOperation[], string][] = [
    [
      'Karmada Test_..._ApplyJSONOverridePolicies_JSON: compact in, compact out',
      '{"key":{"key1":"value"}}',
      [{ subPath: '/key/key1', operator: 'replace', value: 'updated_value' }],
      '{"key":{"key1":"updated_value"}}',
    ],
    [
      'add and remove keep key order',
      '{"a":1,"b":2}',
      [
        { subPath: '/c', operator: 'add', value: [1] },
        { subPath: '/a', operator: 'remove' },
      ],
      '{"b":2,"c":[1]}',
    ],
    [
      'pretty-printed in, compact Go JSON out, as Karmada stores it (json.Marshal)',
      '{\n    "b": 1,\n    "a": 1\n}\n',
      [{ subPath: '/a', operator: 'replace', value: 2 }],
      '{"b":1,"a":2}',
    ],
    [
      'HTML characters are escaped as Go json.Marshal escapes them',
      '{"url":"http://x"}',
      [{ subPath: '/url', operator: 'replace', value: 'http://x/?a=1&b=<2>' }],
      '{"url":"http://x/?a=1\\u0026b=\\u003c2\\u003e"}',
    ],
    [
      'JSON keeps Karmada types exactly: a string value stays a string',
      '{"port":5432}',
      [{ subPath: '/port', operator: 'replace', value: '3306' }],
      '{"port":"3306"}',
    ],
    ['an empty document is left alone (evanphx/json-patch)', '', [{ subPath: '/a', operator: 'add', value: 1 }], ''],
  ];
  for (const [name, text, ops, want] of cases) {
    it(name, () => {
      const result = patchJsonText(text, ops);
      assert.ok(result.ok, result.ok ? '' : result.error);
      assert.equal(result.text, want);
    });
  }
});

describe('fieldOverrider: failures are results and leave the input unchanged', () => {
  const cm: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c', namespace: 'default' },
    data: { 'a.yaml': 'a: 1\n', 'a.json': '{"a":1}', bad: 'a: [1\n' },
    binaryData: { n: 1 } as unknown as Record<string, string>,
  };
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      'fieldPath is not a JSON pointer',
      { fieldPath: 'data/a.yaml', yaml: [{ subPath: '/a', operator: 'remove' }] },
      /invalid fieldPath/,
    ],
    [
      'fieldPath does not exist',
      { fieldPath: '/data/missing', yaml: [{ subPath: '/a', operator: 'remove' }] },
      /has no key "missing"/,
    ],
    [
      'fieldPath is not a string (Karmada: "is not string")',
      { fieldPath: '/data', json: [{ subPath: '/a', operator: 'remove' }] },
      /path\(\/data\) is not string/,
    ],
    [
      'fieldPath to a number',
      { fieldPath: '/binaryData/n', json: [{ subPath: '/a', operator: 'remove' }] },
      /is not string/,
    ],
    [
      'unparsable YAML',
      { fieldPath: '/data/bad', yaml: [{ subPath: '/a', operator: 'remove' }] },
      /does not hold valid YAML/,
    ],
    [
      'unparsable JSON',
      { fieldPath: '/data/a.yaml', json: [{ subPath: '/a', operator: 'remove' }] },
      /does not hold valid JSON/,
    ],
    [
      'replace a missing subPath',
      { fieldPath: '/data/a.yaml', yaml: [{ subPath: '/b', operator: 'replace', value: 1 }] },
      /path does not exist/,
    ],
    [
      'remove a missing subPath',
      { fieldPath: '/data/a.json', json: [{ subPath: '/b', operator: 'remove' }] },
      /path does not exist/,
    ],
    [
      'add under a missing parent',
      { fieldPath: '/data/a.yaml', yaml: [{ subPath: '/x/y', operator: 'add', value: 1 }] },
      /parent of the path does not exist/,
    ],
    [
      'bad subPath pointer',
      { fieldPath: '/data/a.yaml', yaml: [{ subPath: 'a', operator: 'remove' }] },
      /invalid "path"/,
    ],
  ];
  for (const [name, fieldOverrider, message] of cases) {
    it(name, () => {
      const before = structuredClone(cm);
      const result = applyOverrides(cm, [
        rule({
          labelsOverrider: [{ operator: 'add', value: { touched: 'yes' } }],
          fieldOverrider: [fieldOverrider as never],
        }),
      ]);
      assert.equal(result.ok, false);
      if (result.ok) return;
      assert.match(result.error, message);
      assert.match(result.error, /^OverridePolicy default\/test \(rule 0\): fieldOverrider\[0\]: /);
      assert.deepEqual(cm, before, 'the input, including the already-applied labels step, is untouched');
    });
  }

  it('a later failing fieldOverrider discards the earlier successful one (all or nothing)', () => {
    const result = applyOverrides(cm, [
      rule({
        fieldOverrider: [
          { fieldPath: '/data/a.yaml', yaml: [{ subPath: '/a', operator: 'replace', value: 2 }] },
          { fieldPath: '/data/bad', yaml: [{ subPath: '/a', operator: 'remove' }] },
        ],
      }),
    ]);
    assert.equal(result.ok, false);
    assert.equal((cm.data as Record<string, string>)['a.yaml'], 'a: 1\n');
  });

  it('a fieldOverrider with neither json nor yaml leaves the field as it is', () => {
    const result = applyOverrides(cm, [rule({ fieldOverrider: [{ fieldPath: '/data/a.yaml' }] })]);
    assert.ok(result.ok);
    assert.deepEqual(result.object, cm);
  });
});
