/**
 * The Kubernetes REST layer's public surface: the {@link RestHandler} and the types its servers
 * implement or receive. Importers outside `lib/kube` use this entry; files inside `lib/kube` import
 * `base/types.ts` or `rest/backend.ts` directly, as this barrel also loads the handler (and so
 * discovery and the catalog).
 */
export type { AdmissionInput, RestBackend, WriteEvent } from './backend.ts';
export { forbidden, RestHandler, verbOf } from './handler.ts';
export type {
  FieldConflict,
  FieldManager,
  Operation,
  PatchEngine,
  RequestAttributes,
  UserInfo,
} from '../base/types.ts';
