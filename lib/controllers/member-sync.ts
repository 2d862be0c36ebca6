/**
 * The record a member sync that had nothing to do leaves per cluster (decision 0016, point 12): stamps
 * of the Works and of the member's lists as that sync read them, so the next sync — in whichever
 * execution environment it lands — can tell from them that nothing changed and read no Work.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../api/object.ts';
import type { ManifestKind } from '../members/work-apply.ts';
import type { ListedRef } from '../store/port.ts';
import { clusterRecordSpec } from './cluster-record.ts';

/**
 * Per cluster, what its last member sync that had nothing to do read, stored so that every execution
 * environment of the executor finds it (a sync lands on any of them).
 */
export const MEMBER_SYNC = { group: 'cluster.serverless-karmada.io', kind: 'MemberSync' } as const;

/** What a member sync that had nothing to do read: stamps of the Works and of the member's lists. */
export interface SettledSync {
  works: string;
  member: string;
  kinds: ManifestKind[];
}

/** The settled sync a stored record describes, if it is this cluster's (not a former one's of that name). */
export function settledOf(record: KubeObject | undefined, cluster: KubeObject): SettledSync | undefined {
  const spec = clusterRecordSpec<Partial<SettledSync>>(record, cluster);
  return spec?.works && spec.member && spec.kinds
    ? { works: spec.works, member: spec.member, kinds: spec.kinds }
    : undefined;
}

/**
 * A stamp of a cluster's Works: each one's name and resource version (undefined when a version is
 * unknown, which never matches).
 */
export function stampOfWorks(refs: readonly ListedRef[]): string | undefined {
  const lines: string[] = [];
  for (const r of refs) {
    if (r.resourceVersion === undefined) return undefined;
    lines.push(`${r.namespace ?? ''}/${r.name} ${r.resourceVersion}`);
  }
  return createHash('sha256').update(lines.sort().join('\n')).digest('base64url');
}
