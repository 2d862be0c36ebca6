// Entry of the simulated members' worker thread (lib/sim/member-thread.ts). A worker does not inherit
// the TypeScript loader of the thread that starts it (Node 20), whether that one came from
// `node --import tsx` or from bin/skctl.mjs: register it here, as bin/skctl.mjs does, then load the worker.
import { register } from 'tsx/esm/api';

register();
await import('./member-worker.ts');
