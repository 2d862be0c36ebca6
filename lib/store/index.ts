export * from './errors.ts';
export { KIND_SHARDS } from './layout.ts';
export { MemoryRowStore } from './memory-rows.ts';
export type {
  DeleteOptions,
  DeleteResult,
  DependentsQuery,
  ListPage,
  ListQuery,
  ObjectStore,
  WriteOptions,
} from './port.ts';
export { RowObjectStore, type RowObjectStoreOptions } from './row-object-store.ts';
export type { IndexPage, IndexQuery, IndexRow, Row, RowStore, WriteCondition, WriteOutcome } from './rows.ts';
export { type LatestUpdate, tryWrite, updateLatest, type WriteAttempt } from './write.ts';
