/**
 * Work names (Karmada v1.15.9 `pkg/util/names/names.go` `GenerateWorkName`, `names_test.go`
 * `TestGenerateWorkName`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fnv32a } from '../../../../lib/core/scheduler/assignment/webster.ts';
import { generateWorkName } from '../../../../lib/core/work/index.ts';

/** Karmada's test oracle: `<lower(name ':'→'.')>-<SafeEncodeString(fnv32a(hashInput))>`. */
function expected(name: string, hashInput: string): string {
  const digits = String(fnv32a(hashInput));
  const encoded = [...digits].map((c) => 'bcdfghjklmnpqrstvwxz2456789'[c.charCodeAt(0) % 27]).join('');
  return `${name.replaceAll(':', '.').toLowerCase()}-${encoded}`;
}

describe('generateWorkName (GenerateWorkName)', () => {
  const cases: [string, [kind: string, name: string, namespace?: string], string][] = [
    [
      'Deployment default/nginx is nginx-687f7fb96f (Karmada docs)',
      ['Deployment', 'nginx', 'default'],
      'nginx-687f7fb96f',
    ],
    [
      'cluster-scoped: no namespace in the hash (TestGenerateWorkName "empty namespace")',
      ['Pod', 'pod', ''],
      expected('pod', 'pod-pod'),
    ],
    ['absent namespace is cluster-scoped too', ['Pod', 'pod'], expected('pod', 'pod-pod')],
    [
      'name and kind are lower-cased in the hash ("non nil namespace")',
      ['pods', 'Pod', 'default'],
      expected('Pod', 'default-pod-pods'),
    ],
    [
      'a colon in the name becomes a dot, in the name and the hash ("colon in name")',
      ['Pods', 'work:pod', 'default'],
      expected('work:pod', 'default-work.pod-pods'),
    ],
    [
      'RBAC names: system:aggregate-to-edit ClusterRole',
      ['ClusterRole', 'system:aggregate-to-edit'],
      expected('system:aggregate-to-edit', 'system.aggregate-to-edit-clusterrole'),
    ],
  ];
  for (const [name, [kind, objectName, namespace], want] of cases) {
    it(name, () => assert.equal(generateWorkName(kind, objectName, namespace), want));
  }

  it('the kind takes part in the hash: same name, different kinds, different Works', () => {
    assert.notEqual(generateWorkName('Deployment', 'web', 'default'), generateWorkName('Service', 'web', 'default'));
  });
});
