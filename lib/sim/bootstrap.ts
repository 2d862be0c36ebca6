/**
 * What a simulated member holds on its first start: the default namespaces and the nodes of its
 * configuration (region, zones, capacity), as a kubeadm cluster with that many kubelets would.
 */
import { rfc3339 } from '../api/time.ts';
import { formatBytes, formatCpu, quantityAsNumber } from '../api/quantity.ts';
import { AlreadyExistsError } from '../store/errors.ts';
import type { ObjectStore } from '../store/port.ts';
import type { MemberConfig } from './config.ts';

const MEMBER_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** Creates what is missing of the default namespaces and the configured nodes (idempotent). */
export async function bootstrapMember(store: ObjectStore, config: MemberConfig, nowMs: number): Promise<void> {
  const now = rfc3339(nowMs);
  for (const name of MEMBER_NAMESPACES) {
    try {
      const ns = await store.create({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name, finalizers: ['kubernetes'] },
        spec: { finalizers: ['kubernetes'] },
      });
      await store.updateStatus({ ...ns, status: { phase: 'Active' } });
    } catch (err) {
      if (!(err instanceof AlreadyExistsError)) throw err;
    }
  }
  const c = config;
  for (let i = 0; i < c.nodes; i++) {
    const name = `${c.name}-node-${i + 1}`;
    const zone = c.zones[i % c.zones.length]!;
    const capacity: Record<string, string> = {
      cpu: formatCpu(quantityAsNumber(c.node.cpu)),
      memory: formatBytes(quantityAsNumber(c.node.memory)),
      pods: String(quantityAsNumber(c.node.pods)),
      'ephemeral-storage': formatBytes(quantityAsNumber(c.node['ephemeral-storage'])),
      ...Object.fromEntries(Object.entries(c.node.extended ?? {}).map(([k, v]) => [k, String(v)])),
    };
    try {
      const node = await store.create({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name,
          labels: {
            'kubernetes.io/hostname': name,
            'kubernetes.io/os': 'linux',
            'kubernetes.io/arch': 'amd64',
            'topology.kubernetes.io/region': c.region,
            'topology.kubernetes.io/zone': zone,
            'node.kubernetes.io/instance-type': 'sim.standard',
            'serverless-karmada.io/provider': c.provider,
          },
        },
        spec: { providerID: `${c.provider}:///${zone}/${name}` },
      });
      await store.updateStatus({
        ...node,
        status: {
          capacity,
          allocatable: capacity,
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              message: 'kubelet is posting ready status',
              lastHeartbeatTime: now,
              lastTransitionTime: now,
            },
            {
              type: 'MemoryPressure',
              status: 'False',
              reason: 'KubeletHasSufficientMemory',
              lastHeartbeatTime: now,
              lastTransitionTime: now,
            },
            {
              type: 'DiskPressure',
              status: 'False',
              reason: 'KubeletHasNoDiskPressure',
              lastHeartbeatTime: now,
              lastTransitionTime: now,
            },
            {
              type: 'PIDPressure',
              status: 'False',
              reason: 'KubeletHasSufficientPID',
              lastHeartbeatTime: now,
              lastTransitionTime: now,
            },
          ],
          addresses: [
            { type: 'InternalIP', address: `192.168.${i}.10` },
            { type: 'Hostname', address: name },
          ],
          nodeInfo: {
            kubeletVersion: c.kubernetesVersion,
            kubeProxyVersion: c.kubernetesVersion,
            containerRuntimeVersion: 'containerd://1.7.22',
            osImage: 'Simulated Linux',
            operatingSystem: 'linux',
            architecture: 'amd64',
            kernelVersion: '6.1.0-sim',
          },
        },
      });
    } catch (err) {
      if (!(err instanceof AlreadyExistsError)) throw err;
    }
  }
}
