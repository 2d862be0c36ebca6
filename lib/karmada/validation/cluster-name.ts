/**
 * Karmada's cluster-name rule (`pkg/apis/cluster/validation.ValidateClusterName`): a DNS-1123 label
 * of at most 48 characters, leaving room for the `karmada-es-` execution-namespace prefix.
 */
import { byteLength, isDNS1123Label } from '../../util/validation.ts';

/** The longest cluster name Karmada accepts. */
export const CLUSTER_NAME_MAX_LENGTH = 48;

/** Why `name` is not a valid cluster name (empty when it is). */
export function validateClusterName(name: string): string[] {
  if (name.length === 0) return ['must be not empty'];
  if (byteLength(name) > CLUSTER_NAME_MAX_LENGTH) return [`must be no more than ${CLUSTER_NAME_MAX_LENGTH} characters`];
  return isDNS1123Label(name);
}
