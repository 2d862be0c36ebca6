/**
 * The resource interpreter of the decision core: Karmada's `InterpretReplica` (`GetReplicas`) and
 * `InterpretComponent` (`GetComponents`) for native kinds and Karmada's third-party built-in
 * customizations, as pure functions over plain JSON objects, with a registry keyed by
 * `apiVersion/kind` that ResourceInterpreterCustomization support can extend ({@link withInterpreter}).
 */
export {
  type BindingWorkload,
  DEFAULT_INTERPRETERS,
  type InterpretCallOptions,
  hasComponents,
  hasReplicas,
  interpretBindingWorkload,
  interpretComponents,
  interpretReplicas,
} from './interpret.ts';
export {
  type ComponentInterpreter,
  type InterpreterRegistry,
  type KindInterpreter,
  type ReplicaInterpretation,
  type ReplicaInterpreter,
  interpreterKey,
  withInterpreter,
} from './hooks/registry.ts';
export {
  type InterpretOptions,
  generateNodeClaim,
  generateReplicaRequirements,
  podTemplateLimits,
  podTemplateRequests,
} from './hooks/requirements.ts';
export { BUILTIN_INTERPRETERS, jobReplicas, podReplicas, workloadReplicas } from './builtin.ts';
export { ResourceAccumulator, canonicalQuantity, isScalarResourceName } from './hooks/resource.ts';
export {
  THIRDPARTY_INTERPRETERS,
  flinkDeploymentComponents,
  flinkDeploymentReplicas,
  mpiJobComponents,
  pyTorchJobComponents,
  rayClusterComponents,
  rayJobComponents,
  sparkApplicationComponents,
  tfJobComponents,
  volcanoJobComponents,
} from './third-party-kinds/index.ts';
export { replicaLimitsOf } from './limits.ts';
