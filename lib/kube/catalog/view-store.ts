/**
 * A resource served as a view of another kind's storage, as Kubernetes serves `events.k8s.io/v1`
 * Events from the core Events' storage: one set of objects, two shapes. Reads convert from the
 * stored shape, writes convert to it, so an Event written through either API is seen through both.
 */
import type { GroupKind, KubeObject, ObjectRef } from '../../api/object.ts';
import { AlreadyExistsError, ConflictError } from '../../store/errors.ts';
import type {
  DeleteOptions,
  DeleteResult,
  DependentsQuery,
  ListPage,
  ListQuery,
  ObjectStore,
  WriteOptions,
} from '../../store/port.ts';

/** How a served resource maps onto the kind it is stored as. */
export interface ResourceView {
  storage: GroupKind;
  /** Stored shape → served shape (apiVersion and kind are set by the caller). */
  fromStorage(obj: KubeObject): KubeObject;
  /** Served shape → stored shape, including the stored apiVersion and kind. */
  toStorage(obj: KubeObject): KubeObject;
}

export class ViewStore implements ObjectStore {
  readonly #inner: ObjectStore;
  readonly #view: ResourceView;

  constructor(inner: ObjectStore, view: ResourceView) {
    this.#inner = inner;
    this.#view = view;
  }

  async create(obj: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    return this.#out(await this.#mapErrors(() => this.#inner.create(this.#view.toStorage(obj), options)));
  }

  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    const obj = await this.#inner.get(this.#ref(ref));
    return obj && this.#out(obj);
  }

  async list(query: ListQuery): Promise<ListPage> {
    const page = await this.#inner.list({ ...query, ...this.#view.storage });
    return { ...page, items: page.items.map((o) => this.#out(o)) };
  }

  async listRefs(query: Omit<ListQuery, 'labelSelector'>): Promise<ListPage<ObjectRef>> {
    const page = await this.#inner.listRefs({ ...query, ...this.#view.storage });
    return { ...page, items: page.items.map((r) => ({ ...r, group: query.group, kind: query.kind })) };
  }

  listDependents(ownerUid: string, query?: DependentsQuery): Promise<ListPage<ObjectRef>> {
    return this.#inner.listDependents(ownerUid, query);
  }

  async update(obj: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    return this.#out(
      await this.#mapErrors(() => this.#inner.update(this.#view.toStorage(obj), storageOptions(options))),
    );
  }

  async updateStatus(obj: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    return this.#out(
      await this.#mapErrors(() => this.#inner.updateStatus(this.#view.toStorage(obj), storageOptions(options))),
    );
  }

  async updateWithStatus(obj: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    return this.#out(
      await this.#mapErrors(() => this.#inner.updateWithStatus(this.#view.toStorage(obj), storageOptions(options))),
    );
  }

  async delete(ref: ObjectRef, options?: DeleteOptions): Promise<DeleteResult> {
    const result = await this.#mapErrors(() => this.#inner.delete(this.#ref(ref), options));
    return { ...result, object: this.#out(result.object) };
  }

  #ref(ref: ObjectRef): ObjectRef {
    return { ...ref, ...this.#view.storage };
  }

  #out(obj: KubeObject): KubeObject {
    return this.#view.fromStorage(obj);
  }

  /** Errors that carry the current object carry it in the served shape. */
  async #mapErrors<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (err instanceof ConflictError && err.ref) {
        const current = err.current && this.#out(err.current);
        throw new ConflictError(
          err.ref,
          current,
          current ? 'the object has been modified' : 'the object has been deleted',
        );
      }
      if (err instanceof AlreadyExistsError && err.ref) {
        throw new AlreadyExistsError(err.ref, err.current && this.#out(err.current));
      }
      throw err;
    }
  }
}

/** A held copy is in the view's form, not the stored one: the inner store reads the object itself. */
function storageOptions(options: WriteOptions | undefined): WriteOptions | undefined {
  if (!options?.current) return options;
  const { current: _held, ...rest } = options;
  return rest;
}
