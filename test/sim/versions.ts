/**
 * "The store's versions only move forward": once a read or a write of an object has completed at
 * some resourceVersion, every read that starts afterwards sees that version or a later one, and every
 * write that starts afterwards produces a later one. (Operations that overlap in time may complete in
 * either order; only those strictly after one another are compared, so concurrency is not mistaken
 * for going back in time.)
 */
import type { KubeObject, ObjectRef } from '../../lib/api/object.ts';
import type { ObjectStore } from '../../lib/store/port.ts';
import { delegatingStore } from './delegating-store.ts';

interface Seen {
  version: bigint;
  /** The operation counter when this version was seen. */
  at: number;
}

const keyOf = (o: { group?: string; apiVersion?: string; kind?: string; namespace?: string; name?: string }) =>
  `${o.kind}/${o.namespace ?? ''}/${o.name ?? ''}`;

export class VersionWatch {
  readonly #seen = new Map<string, Seen>();
  #clock = 0;
  readonly violations: string[] = [];

  #check(object: KubeObject | undefined, startedAt: number, write: boolean): void {
    const rv = object?.metadata?.resourceVersion;
    if (!object || !rv || !/^\d+$/.test(rv)) return;
    // Versions are per object (this store's resourceVersions are not global): a re-created object
    // starts its own sequence.
    const key = `${keyOf({ kind: object.kind, namespace: object.metadata.namespace, name: object.metadata.name })}/${object.metadata.uid}`;
    const version = BigInt(rv);
    const seen = this.#seen.get(key);
    // A write that changes nothing answers the version it found (as kube-apiserver does), so a write
    // is held to the same rule as a read: never behind.
    if (seen && seen.at < startedAt && version < seen.version) {
      if (this.violations.length < 20) {
        this.violations.push(
          `${object.kind} ${key.slice(key.indexOf('/') + 1)}: a ${write ? 'write' : 'read'} started after resourceVersion ${seen.version} was seen ${write ? 'produced' : 'returned'} ${rv}`,
        );
      }
    }
    if (!seen || version > seen.version) this.#seen.set(key, { version, at: ++this.#clock });
  }

  /** The store, with every operation's versions compared against what completed before it began. */
  wrap(inner: ObjectStore): ObjectStore {
    const read = async (ref: ObjectRef) => {
      const started = ++this.#clock;
      const o = await inner.get(ref);
      this.#check(o, started, false);
      return o;
    };
    const write =
      <A extends unknown[]>(fn: (...args: A) => Promise<KubeObject>) =>
      async (...args: A) => {
        const started = ++this.#clock;
        const o = await fn(...args);
        this.#check(o, started, true);
        return o;
      };
    return delegatingStore(inner, {
      get: read,
      list: async (q) => {
        const started = ++this.#clock;
        const page = await inner.list(q);
        for (const item of page.items) this.#check(item, started, false);
        return page;
      },
      create: write((obj, o) => inner.create(obj, o)),
      update: write((obj, o) => inner.update(obj, o)),
      updateStatus: write((obj, o) => inner.updateStatus(obj, o)),
      updateWithStatus: write((obj, o) => inner.updateWithStatus(obj, o)),
    });
  }
}
