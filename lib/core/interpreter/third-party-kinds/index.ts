/**
 * Karmada's built-in third-party customizations that answer for replicas or components
 * (`pkg/resourceinterpreter/default/thirdparty/resourcecustomizations`), ported to TypeScript. v1.15.0
 * ships `GetComponents` for FlinkDeployment only; the other kinds' scripts arrived in v1.16.0 and are
 * included here as well.
 *
 * Not ported: the `GetReplicas` scripts of the other built-in customizations (OpenKruise kinds, Argo
 * Workflow, Kubeflow Notebook, RayService).
 */
import type { KindInterpreter } from '../hooks/registry.ts';
import { flinkDeploymentComponents, flinkDeploymentReplicas } from './flink.ts';
import { mpiJobComponents, pyTorchJobComponents, tfJobComponents } from './kubeflow.ts';
import { rayClusterComponents, rayJobComponents } from './ray.ts';
import { sparkApplicationComponents } from './spark.ts';
import { volcanoJobComponents } from './volcano.ts';

export { flinkDeploymentComponents, flinkDeploymentReplicas } from './flink.ts';
export { mpiJobComponents, pyTorchJobComponents, tfJobComponents } from './kubeflow.ts';
export { rayClusterComponents, rayJobComponents } from './ray.ts';
export { sparkApplicationComponents } from './spark.ts';
export { volcanoJobComponents } from './volcano.ts';

/** The third-party hooks, keyed by `apiVersion/kind`. */
export const THIRDPARTY_INTERPRETERS: ReadonlyMap<string, KindInterpreter> = new Map<string, KindInterpreter>([
  [
    'flink.apache.org/v1beta1/FlinkDeployment',
    { replicas: flinkDeploymentReplicas, components: flinkDeploymentComponents },
  ],
  ['kubeflow.org/v1/PyTorchJob', { components: pyTorchJobComponents }],
  ['kubeflow.org/v1/TFJob', { components: tfJobComponents }],
  ['kubeflow.org/v2beta1/MPIJob', { components: mpiJobComponents }],
  ['ray.io/v1/RayJob', { components: rayJobComponents }],
  ['ray.io/v1/RayCluster', { components: rayClusterComponents }],
  ['sparkoperator.k8s.io/v1beta2/SparkApplication', { components: sparkApplicationComponents }],
  ['batch.volcano.sh/v1alpha1/Job', { components: volcanoJobComponents }],
]);
