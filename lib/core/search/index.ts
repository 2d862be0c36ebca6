/** karmada-search's decisions: what registries collect, the cache's objects and sync, and its tokens. */
export * from './registry.ts';
export * from './cache.ts';
export * from './tokens.ts';
export * from './chunks.ts';
