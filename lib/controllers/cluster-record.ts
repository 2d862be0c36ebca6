/**
 * Per-cluster records the control plane keeps for itself beside a Cluster (ClusterHealth, MemberSync):
 * one object named after the cluster, carrying the cluster's uid so that a record left by an earlier
 * cluster of the same name does not carry over, and owned by the Cluster so it is collected with it.
 */
import type { GroupKind, KubeObject } from '../api/object.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite } from '../store/write.ts';

/** The record's spec when it belongs to this cluster (same uid), else undefined. */
export function clusterRecordSpec<T extends object>(
  record: KubeObject | undefined,
  cluster: KubeObject,
): T | undefined {
  const spec = record?.spec as ({ clusterUid?: string } & T) | undefined;
  return spec && spec.clusterUid === cluster.metadata.uid ? spec : undefined;
}

/**
 * Writes the record (created when `current` is absent); another writer's record in between wins, as
 * good as ours, and is read again next time.
 */
export async function writeClusterRecord(
  store: ObjectStore,
  kind: GroupKind & { version: string },
  cluster: KubeObject,
  current: KubeObject | undefined,
  spec: object,
): Promise<void> {
  const full = { clusterUid: cluster.metadata.uid, ...spec };
  await tryWrite(() =>
    current
      ? store.update({ ...current, spec: full })
      : store.create({
          apiVersion: `${kind.group}/${kind.version}`,
          kind: kind.kind,
          metadata: {
            name: cluster.metadata.name!,
            ownerReferences: [
              {
                apiVersion: cluster.apiVersion,
                kind: 'Cluster',
                name: cluster.metadata.name!,
                uid: cluster.metadata.uid!,
              },
            ],
          },
          spec: full,
        }),
  );
}
