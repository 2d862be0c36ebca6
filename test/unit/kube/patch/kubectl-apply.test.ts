/**
 * The strategic merge patches kubectl really sends (`kubectl apply` three-way patches, with keys in
 * the order Go's JSON encoder writes them) applied to Deployments as the API server stores them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyStrategicMergePatch } from '../../../../lib/kube/patch/index.ts';
import {
  deepFreeze,
  deploymentSchema,
  liveContainer,
  liveDeployment,
  podSpecOf,
  podSpecPatch,
} from './deployment-fixture.ts';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function apply(live: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  return applyStrategicMergePatch(deepFreeze(live), deepFreeze(patch), deploymentSchema) as Record<string, unknown>;
}

describe('kubectl apply three-way patches on a Deployment', () => {
  it('re-applying with a new image changes only that container and keeps server defaults', () => {
    const live = liveDeployment();
    const annotation = '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"}}\n';
    const patch = {
      metadata: { annotations: { [LAST_APPLIED]: annotation } },
      ...podSpecPatch({
        '$setElementOrder/containers': [{ name: 'web' }],
        containers: [{ image: 'web:1.1', name: 'web' }],
      }),
    };

    const result = apply(live, patch);

    const expected = liveDeployment({ containers: [liveContainer('web', { image: 'web:1.1' })] });
    (expected.metadata as Record<string, unknown>).annotations = { [LAST_APPLIED]: annotation };
    assert.deepEqual(result, expected);
  });

  it('adding an env var by name appends it in manifest order', () => {
    const live = liveDeployment({
      containers: [liveContainer('web', { env: [{ name: 'LOG_LEVEL', value: 'info' }] })],
    });
    const patch = podSpecPatch({
      '$setElementOrder/containers': [{ name: 'web' }],
      containers: [
        {
          '$setElementOrder/env': [{ name: 'LOG_LEVEL' }, { name: 'TZ' }],
          env: [{ name: 'TZ', value: 'UTC' }],
          name: 'web',
        },
      ],
    });

    assert.deepEqual(podSpecOf(apply(live, patch)).containers, [
      liveContainer('web', {
        env: [
          { name: 'LOG_LEVEL', value: 'info' },
          { name: 'TZ', value: 'UTC' },
        ],
      }),
    ]);
  });

  it('removing an env var sends $patch: delete for its name', () => {
    const live = liveDeployment({
      containers: [
        liveContainer('web', {
          env: [
            { name: 'LOG_LEVEL', value: 'info' },
            { name: 'TZ', value: 'UTC' },
          ],
        }),
      ],
    });
    const patch = podSpecPatch({
      '$setElementOrder/containers': [{ name: 'web' }],
      containers: [
        { '$setElementOrder/env': [{ name: 'TZ' }], env: [{ $patch: 'delete', name: 'LOG_LEVEL' }], name: 'web' },
      ],
    });

    assert.deepEqual(podSpecOf(apply(live, patch)).containers, [
      liveContainer('web', { env: [{ name: 'TZ', value: 'UTC' }] }),
    ]);
  });

  it('changing a container port deletes the old containerPort and adds the new one', () => {
    const live = liveDeployment({
      containers: [liveContainer('web', { ports: [{ containerPort: 80, protocol: 'TCP' }] })],
    });
    const patch = podSpecPatch({
      '$setElementOrder/containers': [{ name: 'web' }],
      containers: [
        {
          '$setElementOrder/ports': [{ containerPort: 8080 }],
          name: 'web',
          ports: [{ containerPort: 8080 }, { $patch: 'delete', containerPort: 80 }],
        },
      ],
    });

    assert.deepEqual(podSpecOf(apply(live, patch)).containers, [
      liveContainer('web', { ports: [{ containerPort: 8080 }] }),
    ]);
  });

  it('switching spec.strategy to Recreate clears rollingUpdate through $retainKeys', () => {
    const result = apply(liveDeployment(), { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } });

    assert.deepEqual((result.spec as Record<string, unknown>).strategy, { type: 'Recreate' });
  });

  it('switching spec.strategy back to RollingUpdate keeps the listed rollingUpdate', () => {
    const live = liveDeployment();
    (live.spec as Record<string, unknown>).strategy = { type: 'Recreate' };
    const patch = {
      spec: {
        strategy: { $retainKeys: ['rollingUpdate', 'type'], rollingUpdate: { maxSurge: 1 }, type: 'RollingUpdate' },
      },
    };

    assert.deepEqual((apply(live, patch).spec as Record<string, unknown>).strategy, {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 1 },
    });
  });

  it('deleting a volume and its mount sends $patch: delete in both merge lists', () => {
    const live = liveDeployment({
      containers: [
        liveContainer('web', {
          volumeMounts: [
            { name: 'config', mountPath: '/etc/web' },
            { name: 'cache', mountPath: '/cache' },
          ],
        }),
      ],
      volumes: [
        { name: 'config', configMap: { name: 'web-config', defaultMode: 420 } },
        { name: 'cache', emptyDir: {} },
      ],
    });
    const patch = podSpecPatch({
      '$setElementOrder/containers': [{ name: 'web' }],
      '$setElementOrder/volumes': [{ name: 'config' }],
      containers: [
        {
          '$setElementOrder/volumeMounts': [{ mountPath: '/etc/web' }],
          name: 'web',
          volumeMounts: [{ $patch: 'delete', mountPath: '/cache' }],
        },
      ],
      volumes: [{ $patch: 'delete', name: 'cache' }],
    });

    const spec = podSpecOf(apply(live, patch));

    assert.deepEqual(spec.volumes, [{ name: 'config', configMap: { name: 'web-config', defaultMode: 420 } }]);
    assert.deepEqual(spec.containers, [
      liveContainer('web', { volumeMounts: [{ name: 'config', mountPath: '/etc/web' }] }),
    ]);
  });

  it('switching a volume from emptyDir to configMap drops the old source through $retainKeys', () => {
    const live = liveDeployment({ volumes: [{ name: 'data', emptyDir: { medium: 'Memory' } }] });
    const patch = podSpecPatch({
      '$setElementOrder/volumes': [{ name: 'data' }],
      volumes: [{ $retainKeys: ['configMap', 'name'], configMap: { name: 'web-data' }, emptyDir: null, name: 'data' }],
    });

    assert.deepEqual(podSpecOf(apply(live, patch)).volumes, [{ name: 'data', configMap: { name: 'web-data' } }]);
  });

  it('a container added to the manifest goes where $setElementOrder puts it, before a server-injected sidecar', () => {
    const live = liveDeployment({ containers: [liveContainer('web'), liveContainer('istio-proxy')] });
    const patch = podSpecPatch({
      '$setElementOrder/containers': [{ name: 'web' }, { name: 'metrics' }],
      containers: [{ image: 'metrics:2.0', name: 'metrics' }],
    });

    const names = (podSpecOf(apply(live, patch)).containers as { name: string }[]).map((c) => c.name);

    assert.deepEqual(names, ['web', 'metrics', 'istio-proxy']);
  });

  it('replacing one container by another keeps the sidecar where Kubernetes keeps it', () => {
    // Kubernetes orders by the live list as edited in place by the delete and the append, which
    // puts the sidecar before the new container here.
    const live = liveDeployment({
      containers: [liveContainer('old'), liveContainer('web'), liveContainer('istio-proxy')],
    });
    const patch = podSpecPatch({
      '$setElementOrder/containers': [{ name: 'web' }, { name: 'new' }],
      containers: [
        { image: 'new:1.0', name: 'new' },
        { $patch: 'delete', name: 'old' },
      ],
    });

    const names = (podSpecOf(apply(live, patch)).containers as { name: string }[]).map((c) => c.name);

    assert.deepEqual(names, ['web', 'istio-proxy', 'new']);
  });

  it('removing a finalizer from the manifest sends $deleteFromPrimitiveList with $setElementOrder', () => {
    const live = liveDeployment({}, { finalizers: ['example.com/a', 'example.com/b', 'example.com/c'] });
    const patch = {
      metadata: {
        '$deleteFromPrimitiveList/finalizers': ['example.com/b'],
        '$setElementOrder/finalizers': ['example.com/a', 'example.com/c'],
      },
    };

    assert.deepEqual((apply(live, patch).metadata as Record<string, unknown>).finalizers, [
      'example.com/a',
      'example.com/c',
    ]);
  });
});

describe('kubectl patch (strategic, no ordering directive) on a Deployment', () => {
  it('metadata.finalizers is a union: existing ones are kept, a new one lands first as in Kubernetes', () => {
    const live = liveDeployment({}, { finalizers: ['kubernetes.io/protect'] });
    const result = apply(live, { metadata: { finalizers: ['example.com/cleanup'] } });

    assert.deepEqual((result.metadata as Record<string, unknown>).finalizers, [
      'example.com/cleanup',
      'kubernetes.io/protect',
    ]);
  });

  it('adding a finalizer already present changes nothing', () => {
    const live = liveDeployment({}, { finalizers: ['example.com/a', 'example.com/b'] });
    const result = apply(live, { metadata: { finalizers: ['example.com/b'] } });

    assert.deepEqual((result.metadata as Record<string, unknown>).finalizers, ['example.com/a', 'example.com/b']);
  });

  it('a container patched in by name without $setElementOrder lands first (the kubectl patch docs example)', () => {
    const live = liveDeployment();
    const result = apply(live, podSpecPatch({ containers: [{ name: 'patch-demo-ctr-2', image: 'redis' }] }));

    assert.deepEqual(podSpecOf(result).containers, [
      { name: 'patch-demo-ctr-2', image: 'redis' },
      liveContainer('web'),
    ]);
  });

  it('tolerations have no merge strategy, so the patch list replaces the live one', () => {
    const live = liveDeployment({ tolerations: [{ key: 'a', operator: 'Exists' }] });
    const result = apply(live, podSpecPatch({ tolerations: [{ key: 'b', operator: 'Exists' }] }));

    assert.deepEqual(podSpecOf(result).tolerations, [{ key: 'b', operator: 'Exists' }]);
  });
});
