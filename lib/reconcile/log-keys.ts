import { CLUSTER_GROUP, clusterOfExecutionNamespace, WORK_GROUP } from '../api/karmada-names.ts';
import { parseKey } from '../api/object.ts';

/**
 * The member cluster a queue key is about, for the `cluster` log field: a Cluster's own name, or the
 * cluster of a Work's execution namespace. Keys that are not object keys (resync pages, `*`) have none.
 */
export function clusterOfKey(key: string): string | undefined {
  let ref;
  try {
    ref = parseKey(key);
  } catch {
    return undefined;
  }
  if (ref.group === CLUSTER_GROUP && ref.kind === 'Cluster') return ref.name;
  if (ref.group === WORK_GROUP && ref.kind === 'Work') return clusterOfExecutionNamespace(ref.namespace);
  return undefined;
}
