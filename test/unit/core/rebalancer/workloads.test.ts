/**
 * The workload list of a WorkloadRebalancer (Karmada `syncWorkloadsFromSpecToStatus`) and the binding
 * each workload maps to (`names.GenerateBindingName`). Each row names the Karmada behaviour it pins.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatKey } from '../../../../lib/api/object.ts';
import {
  type ObservedWorkload,
  syncObservedWorkloads,
  workloadBindingRef,
  type WorkloadReference,
  workloadSortKey,
} from '../../../../lib/core/rebalancer/index.ts';
import { notFound, ok, workload } from './fixtures.ts';

const a = workload('a');
const b = workload('b');
const c = workload('c');

describe('syncObservedWorkloads', () => {
  const rows: { name: string; spec: WorkloadReference[]; observed: ObservedWorkload[]; want: ObservedWorkload[] }[] = [
    {
      name: 'a new rebalancer: every workload pending, sorted',
      spec: [c, a],
      observed: [],
      want: [{ workload: a }, { workload: c }],
    },
    {
      name: 'a workload still in the spec keeps its result',
      spec: [a, b],
      observed: [ok(a), notFound(b)],
      want: [ok(a), notFound(b)],
    },
    {
      name: 'a workload removed from the spec stays if it was Successful',
      spec: [b],
      observed: [ok(a), ok(b)],
      want: [ok(a), ok(b)],
    },
    {
      name: 'a workload removed from the spec drops out if it was Failed',
      spec: [b],
      observed: [notFound(a), ok(b)],
      want: [ok(b)],
    },
    {
      name: 'a workload removed from the spec drops out if it was still pending',
      spec: [b],
      observed: [{ workload: a }, ok(b)],
      want: [ok(b)],
    },
    {
      name: 'a modified workload is an old one removed and a new one added',
      spec: [workload('a', { namespace: 'prod' })],
      observed: [notFound(a)],
      want: [{ workload: workload('a', { namespace: 'prod' }) }],
    },
    {
      name: 'a workload listed twice counts once (Karmada keeps the spec in a set)',
      spec: [a, a],
      observed: [],
      want: [{ workload: a }],
    },
    {
      name: 'only the spec order changed: nothing changes',
      spec: [b, a],
      observed: [ok(a), ok(b)],
      want: [ok(a), ok(b)],
    },
    {
      name: 'sorted by apiVersion first, then kind, namespace, name',
      spec: [
        workload('z', { apiVersion: 'apps/v1', kind: 'StatefulSet' }),
        workload('y', { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'b' }),
        workload('x', { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'a' }),
        workload('w', { apiVersion: 'v1', kind: 'ConfigMap' }),
        workload('v', { apiVersion: 'batch/v1', kind: 'Job' }),
      ],
      observed: [],
      want: ['x', 'y', 'z', 'v', 'w'].map((n) => ({
        workload: {
          x: workload('x', { namespace: 'a' }),
          y: workload('y', { namespace: 'b' }),
          z: workload('z', { kind: 'StatefulSet' }),
          v: workload('v', { apiVersion: 'batch/v1', kind: 'Job' }),
          w: workload('w', { apiVersion: 'v1', kind: 'ConfigMap' }),
        }[n]!,
      })),
    },
  ];
  for (const row of rows) {
    it(row.name, () => assert.deepEqual(syncObservedWorkloads(row.spec, row.observed), row.want));
  }

  it('the sort key is Karmada’s fmt "%s %s %s %s" of apiVersion, kind, namespace, name', () => {
    assert.equal(workloadSortKey(workload('web')), 'apps/v1 Deployment default web');
    assert.equal(
      workloadSortKey(workload('admin', { apiVersion: 'v1', kind: 'Namespace', namespace: '' })),
      'v1 Namespace  admin',
    );
  });
});

describe('workloadBindingRef (names.GenerateBindingName)', () => {
  const rows: { name: string; workload: WorkloadReference; want: string }[] = [
    {
      name: 'a namespaced workload: ResourceBinding lower(<name>-<kind>) in its namespace',
      workload: workload('Web', { namespace: 'shop' }),
      want: 'ResourceBinding.work.karmada.io/shop/web-deployment',
    },
    {
      name: 'a cluster-scoped workload (no namespace): ClusterResourceBinding',
      workload: workload('admin', { apiVersion: 'v1', kind: 'Namespace', namespace: '' }),
      want: 'ClusterResourceBinding.work.karmada.io/admin-namespace',
    },
    {
      name: '`:` in the name becomes `.` (RBAC names such as system:reader)',
      workload: workload('system:reader', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        namespace: '',
      }),
      want: 'ClusterResourceBinding.work.karmada.io/system.reader-clusterrole',
    },
    {
      name: 'the API version plays no part',
      workload: workload('web', { apiVersion: 'apps/v1beta2' }),
      want: 'ResourceBinding.work.karmada.io/default/web-deployment',
    },
  ];
  for (const row of rows) {
    it(row.name, () => assert.equal(formatKey(workloadBindingRef(row.workload)), row.want));
  }
});
