/**
 * Lambda: the detector controller. Wiring only — lib/controllers/detector.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { DETECTOR_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { detectorFactory } from '../lib/wiring/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(DETECTOR_CONTROLLER_NAME, detectorFactory, wireRuntime(loadRuntimeConfig()));
