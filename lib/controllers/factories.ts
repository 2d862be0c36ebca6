/**
 * How each controller is built from the runtime's ports. A function imports only its own factory
 * (the bundler drops the rest); local mode runs them all through {@link CONTROLLER_FACTORIES}.
 */
import type { Controller } from '../reconcile/controller.ts';
import { createResyncController, RESYNC_CONTROLLER } from '../reconcile/resync.ts';
import type { Runtime } from '../wiring.ts';
import { resyncTargets } from './specs.ts';

export type ControllerFactory = (runtime: Runtime) => Controller;

export const resyncFactory: ControllerFactory = (runtime) =>
  createResyncController({ store: runtime.store, workQueue: runtime.workQueue, targets: resyncTargets() });

/** Every controller by name; must cover every entry of CONTROLLER_SPECS (a test checks). */
export const CONTROLLER_FACTORIES: Readonly<Record<string, ControllerFactory>> = {
  [RESYNC_CONTROLLER]: resyncFactory,
};
