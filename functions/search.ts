/**
 * Lambda: the search collector (the global proxy's cache). Wiring only — lib/controllers/search.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { SEARCH_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { searchFactory } from '../lib/wiring/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(SEARCH_CONTROLLER_NAME, searchFactory, wireRuntime(loadRuntimeConfig()));
