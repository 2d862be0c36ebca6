/**
 * Karmada's `propagateDeps` (dependencies distributor), the pure part: which objects a workload
 * depends on ({@link interpretDependencies}, Karmada's native `InterpretDependency`), the attached
 * ResourceBinding each dependency gets for an independent binding ({@link attachedBinding},
 * {@link withoutRequirement}, {@link isOrphanAttachedBinding}, {@link dependedByLabelKey}) and the
 * clusters any binding renders Works on ({@link targetClusters}). No I/O: the caller fetches the
 * dependency objects and writes the bindings.
 */
export {
  type DependencyRef,
  DependencyInterpretationError,
  interpretDependencies,
  interpretsDependencies,
  podSpecDependencies,
} from './interpret.ts';
export {
  attachedBinding,
  attachedBindingName,
  attachedBindingOwnerConflict,
  dependedByLabelKey,
  dependenciesAnnotation,
  isOrphanAttachedBinding,
  targetClusters,
  withoutRequirement,
} from './attached.ts';
