/**
 * The control plane's catalog: built-in kinds, Karmada's kinds, and every CustomResourceDefinition
 * stored — cached briefly, so a burst of requests lists CRDs once, and refreshed at once in the
 * process that wrote a CRD.
 */
import type { Clock } from '../clock/clock.ts';
import { controlPlaneBuiltins } from '../kube/builtin/kinds.ts';
import { resourceDefsFromCrd } from '../kube/crd.ts';
import { Catalog, type ResourceDef, type ResourceStrategy } from '../kube/catalog/resources.ts';
import type { ObjectStore } from '../store/port.ts';
import { karmadaResourceDefs } from './kinds.ts';

/** The group and kind of a CustomResourceDefinition: a write of one changes the catalog. */
export const CRD_GROUP = 'apiextensions.k8s.io';
export const CRD_KIND = 'CustomResourceDefinition';

/** Where the API and the controllers that walk every kind get the current catalog. */
export interface CatalogProvider {
  catalog(): Promise<Catalog>;
  /** Forget the cached CRDs (after a CRD write in this process). */
  invalidate(): void;
}

/** The kinds the control plane serves without a stored CRD: Kubernetes built-ins and Karmada's. */
export function staticControlPlaneDefs(karmadaStrategy?: ResourceStrategy): ResourceDef[] {
  return [...controlPlaneBuiltins(), ...karmadaResourceDefs(karmadaStrategy)];
}

/** Catalog = static defs + the served versions of stored CRDs (a CRD never overrides a native kind). */
export class StoredCrdCatalog implements CatalogProvider {
  readonly #store: ObjectStore;
  readonly #clock: Clock;
  readonly #static: Catalog;
  readonly #ttlMs: number;
  #cached: { catalog: Catalog; until: number } | undefined;

  constructor(store: ObjectStore, clock: Clock, staticDefs: readonly ResourceDef[], options: { ttlMs?: number } = {}) {
    this.#store = store;
    this.#clock = clock;
    this.#static = new Catalog(staticDefs);
    this.#ttlMs = options.ttlMs ?? 2_000;
  }

  invalidate(): void {
    this.#cached = undefined;
  }

  async catalog(): Promise<Catalog> {
    const now = this.#clock.now();
    if (this.#cached && this.#cached.until > now) return this.#cached.catalog;
    const native = new Set(this.#static.defs.map((d) => `${d.group}/${d.kind}`));
    const extra: ResourceDef[] = [];
    let token: string | undefined;
    do {
      const page = await this.#store.list({
        group: CRD_GROUP,
        kind: CRD_KIND,
        limit: 500,
        ...(token ? { continue: token } : {}),
      });
      for (const crd of page.items) {
        if (crd.metadata.deletionTimestamp) continue;
        const spec = crd.spec as { group?: string; names?: { kind?: string } } | undefined;
        if (native.has(`${spec?.group}/${spec?.names?.kind}`)) continue;
        try {
          extra.push(...resourceDefsFromCrd(crd, crd.metadata.name ?? 'crd'));
        } catch {
          // A stored CRD that cannot be served (should not pass admission) is skipped, not fatal.
        }
      }
      token = page.continue;
    } while (token);
    const catalog = extra.length ? this.#static.with(extra) : this.#static;
    this.#cached = { catalog, until: now + this.#ttlMs };
    return catalog;
  }
}
