/**
 * A collected kind read from a member in pages (`limit`/`continue`), one namespace at a time when the
 * collection names namespaces: what both the collector (Push) and the agent (Pull) walk. Nothing is
 * kept between pages.
 */
import type { KubeObject } from '../api/object.ts';
import { type Collection, toCached } from '../core/index.ts';
import type { MemberClient } from '../members/client.ts';

export interface MemberPage {
  /** `<namespace>/` when the collection is limited to namespaces (the page's keys share it). */
  prefix?: string;
  /** The first page of its namespace (or of the whole list): the previous key range ends here. */
  first: boolean;
  /** The page's objects as the cache stores them. */
  items: KubeObject[];
  /** The last page of its namespace (or list). */
  last: boolean;
}

export interface MemberKind {
  objects: number;
  /** The first page's list resourceVersion. */
  resourceVersion?: string;
  /** The member's resource name for the kind, and its scope. */
  plural: string;
  namespaced: boolean;
}

export async function forEachMemberPage(
  client: MemberClient,
  kind: Collection,
  pageSize: number,
  onPage: (page: MemberPage) => Promise<void>,
): Promise<MemberKind> {
  let objects = 0;
  let resourceVersion: string | undefined;
  const collection = await client.collectionPath(kind.apiVersion, kind.kind);
  const plural = collection.slice(collection.lastIndexOf('/') + 1);
  const namespaced = (await client.pathOf(kind.apiVersion, kind.kind, 'default')).includes('/namespaces/');
  // A cluster-scoped kind selected "in a namespace" is collected once, whole.
  const namespaces = namespaced && kind.namespaces ? kind.namespaces : [undefined];
  for (const namespace of namespaces) {
    const path = namespace ? await client.pathOf(kind.apiVersion, kind.kind, namespace) : collection;
    let token: string | undefined;
    let first = true;
    do {
      const page = await client.getJson<{
        items?: KubeObject[];
        metadata?: { continue?: string; resourceVersion?: string };
      }>(`${path}?limit=${pageSize}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      resourceVersion ??= page.metadata?.resourceVersion;
      token = page.metadata?.continue || undefined;
      const items = (page.items ?? []).map((o) => toCached(o, kind.apiVersion, kind.kind));
      objects += items.length;
      await onPage({ ...(namespace ? { prefix: `${namespace}/` } : {}), first, items, last: !token });
      first = false;
    } while (token);
  }
  return { objects, plural, namespaced, ...(resourceVersion ? { resourceVersion } : {}) };
}
