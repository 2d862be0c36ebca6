/**
 * ResourceRegistry admission: karmada-search's `ValidateResourceRegistry`
 * (`pkg/apis/search/validation/validation.go`) and the rows of its validation_test.go; an empty kind,
 * which Karmada accepts and which selects nothing, is refused here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/api/object.ts';
import { validateKarmadaObject } from '../../../../lib/karmada/validation/index.ts';
import { messages } from './support.ts';

const registry = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'search.karmada.io/v1alpha1',
  kind: 'ResourceRegistry',
  metadata: { name: 'r' },
  spec: { targetCluster: {}, resourceSelectors: [{ apiVersion: 'v1', kind: 'Pod' }], ...spec },
});

describe('ResourceRegistry validation (karmada-search v1.15)', () => {
  const cases: { rule: string; spec: Record<string, unknown>; errors: string[] }[] = [
    { rule: 'valid: a kind in every cluster', spec: {}, errors: [] },
    { rule: 'valid: empty resource selectors (Karmada accepts them)', spec: { resourceSelectors: [] }, errors: [] },
    {
      rule: 'targetCluster.fieldSelector keys are provider, region or zone',
      spec: {
        targetCluster: { fieldSelector: { matchExpressions: [{ key: 'name', operator: 'In', values: ['x'] }] } },
      },
      errors: [
        'spec.targetCluster.fieldSelector: Invalid value: {"matchExpressions":[{"key":"name","operator":"In","values":["x"]}]}: unsupported key "name", must be provider, region, or zone',
      ],
    },
    {
      rule: 'apiVersion must parse as a group/version',
      spec: { resourceSelectors: [{ apiVersion: 'apps/v1/extra', kind: 'Deployment' }] },
      errors: [
        'spec.resourceSelectors[0].apiVersion: Invalid value: "apps/v1/extra": unexpected GroupVersion string: apps/v1/extra',
      ],
    },
    {
      rule: 'namespace must be a DNS label',
      spec: { resourceSelectors: [{ apiVersion: 'v1', kind: 'Pod', namespace: 'Bad_NS' }] },
      errors: [
        "spec.resourceSelectors[0].namespace: Invalid value: \"Bad_NS\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    },
    {
      rule: 'a selector without a kind selects nothing: refused (Karmada accepts it)',
      spec: { resourceSelectors: [{ apiVersion: 'v1', kind: '' }] },
      errors: [
        'spec.resourceSelectors[0].kind: Required value: kind is required: a selector without one selects nothing',
      ],
    },
    {
      rule: 'OpenSearch addresses must be http(s) URLs with a host',
      spec: { backendStore: { openSearch: { addresses: ['localhost:9200', 'https://search.example.com:9200'] } } },
      errors: [
        'spec.backendStore.openSearch.addresses[0]: Invalid value: "localhost:9200": must be a valid http or https URL with non-empty scheme and host',
      ],
    },
  ];
  for (const c of cases) {
    it(c.rule, () => {
      assert.deepEqual(messages(validateKarmadaObject(registry(c.spec), undefined)), c.errors);
    });
  }
});
