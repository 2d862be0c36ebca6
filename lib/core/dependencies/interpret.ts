/**
 * Karmada's default `InterpretDependency` (`pkg/resourceinterpreter/default/native/dependencies.go`):
 * the objects a workload needs in every cluster it runs in, read from its pod template by
 * `helper.GetDependenciesFromPodTemplate` (`pkg/util/helper/pod.go`) with the visitors Karmada lifted
 * from Kubernetes (`pkg/util/lifted/visitpod.go`: `VisitPodSecretNames`, `VisitPodConfigmapNames`).
 *
 * The interpreters are keyed by exact group/version/kind, as Karmada's map is: `apps/v1` Deployment,
 * DaemonSet and StatefulSet, `batch/v1` Job and CronJob, `v1` Pod and `networking.k8s.io/v1` Ingress.
 * ReplicaSet has none. `multicluster.x-k8s.io/v1alpha1` ServiceImport has one in Karmada, but one of
 * its two dependencies is a label selector (EndpointSlices by `kubernetes.io/service-name`), which a
 * {@link DependencyRef} cannot express, so it is not interpreted here ({@link interpretsDependencies}
 * is false for it).
 *
 * Nothing here throws for malformed pod templates: a field of the wrong JSON type counts as absent.
 */
import { isObject } from '../interpreter/hooks/requirements.ts';
import type { KubeObject } from '../model/types.ts';

/**
 * One object a workload depends on (Karmada's `DependentObjectReference` with a name; the
 * label-selector form is not produced by the native interpreters this module implements).
 */
export interface DependencyRef {
  apiVersion: string;
  kind: string;
  /** The workload's namespace (`''` when the workload has none). */
  namespace: string;
  name: string;
}

/**
 * Thrown by {@link interpretDependencies} where Karmada's interpreter returns an error: an Ingress TLS
 * entry without `secretName` yields a dependency with neither name nor label selector, which
 * `validation.VerifyDependencies` rejects, so the whole interpretation fails (the distributor records a
 * `GetDependenciesFailed` event and retries; attached bindings are left as they are).
 */
export class DependencyInterpretationError extends Error {
  override name = 'DependencyInterpretationError';
}

type Json = Record<string, unknown>;

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function field(value: unknown, key: string): unknown {
  return isObject(value) ? value[key] : undefined;
}

function child(value: unknown, key: string): Json | undefined {
  const c = field(value, key);
  return isObject(c) ? c : undefined;
}

function str(value: unknown, key: string): string {
  if (!isObject(value)) return '';
  const s = value[key];
  return typeof s === 'string' ? s : '';
}

/** `VisitContainers(spec, AllContainers, …)`: init, then regular, then ephemeral containers. */
function allContainers(podSpec: Json): Json[] {
  return [
    ...objects(podSpec['initContainers']),
    ...objects(podSpec['containers']),
    ...objects(podSpec['ephemeralContainers']),
  ];
}

/**
 * The secret-bearing volume sources in the order of `VisitPodSecretNames`' `switch` (only the first
 * present source of a volume is looked at), each with the path to the secret's name in it; `null`
 * for `projected`, whose `sources[].secret.name` are all visited.
 */
const SECRET_VOLUME_SOURCES: readonly [source: string, namePath: readonly string[] | null][] = [
  ['azureFile', ['secretName']],
  ['cephfs', ['secretRef', 'name']],
  ['cinder', ['secretRef', 'name']],
  ['flexVolume', ['secretRef', 'name']],
  ['projected', null],
  ['rbd', ['secretRef', 'name']],
  ['secret', ['secretName']],
  ['scaleIO', ['secretRef', 'name']],
  ['iscsi', ['secretRef', 'name']],
  ['storageos', ['secretRef', 'name']],
  ['csi', ['nodePublishSecretRef', 'name']],
];

/** `getSecretNames` (`lifted.VisitPodSecretNames`), empty names skipped. */
function secretNames(podSpec: Json): Set<string> {
  const names = new Set<string>();
  const visit = (name: string): void => {
    if (name !== '') names.add(name);
  };
  for (const ref of objects(podSpec['imagePullSecrets'])) visit(str(ref, 'name'));
  for (const c of allContainers(podSpec)) {
    for (const envFrom of objects(c['envFrom'])) {
      const ref = child(envFrom, 'secretRef');
      if (ref) visit(str(ref, 'name'));
    }
    for (const env of objects(c['env'])) {
      const ref = child(child(env, 'valueFrom'), 'secretKeyRef');
      if (ref) visit(str(ref, 'name'));
    }
  }
  for (const volume of objects(podSpec['volumes'])) {
    const found = SECRET_VOLUME_SOURCES.find(([key]) => child(volume, key) !== undefined);
    if (!found) continue;
    const [key, namePath] = found;
    const source = child(volume, key);
    if (namePath === null) {
      for (const p of objects(field(source, 'sources'))) {
        const secret = child(p, 'secret');
        if (secret) visit(str(secret, 'name'));
      }
      continue;
    }
    // A nil `secretRef` visits nothing; a present one visits its name (empty names skipped).
    const holder = namePath.slice(0, -1).reduce<Json | undefined>((obj, k) => child(obj, k), source);
    if (holder) visit(str(holder, namePath[namePath.length - 1]!));
  }
  return names;
}

/** `getConfigMapNames` (`lifted.VisitPodConfigmapNames`), empty names skipped. */
function configMapNames(podSpec: Json): Set<string> {
  const names = new Set<string>();
  const visit = (name: string): void => {
    if (name !== '') names.add(name);
  };
  for (const c of allContainers(podSpec)) {
    for (const envFrom of objects(c['envFrom'])) {
      const ref = child(envFrom, 'configMapRef');
      if (ref) visit(str(ref, 'name'));
    }
    for (const env of objects(c['env'])) {
      const ref = child(child(env, 'valueFrom'), 'configMapKeyRef');
      if (ref) visit(str(ref, 'name'));
    }
  }
  for (const volume of objects(podSpec['volumes'])) {
    const projected = child(volume, 'projected');
    if (projected) {
      for (const p of objects(projected['sources'])) {
        const cm = child(p, 'configMap');
        if (cm) visit(str(cm, 'name'));
      }
      continue;
    }
    const cm = child(volume, 'configMap');
    if (cm) visit(str(cm, 'name'));
  }
  return names;
}

/** `getServiceAccountNames`: `spec.serviceAccountName` unless empty or `default` (the deprecated `serviceAccount` is ignored). */
function serviceAccountNames(podSpec: Json): Set<string> {
  const name = str(podSpec, 'serviceAccountName');
  return new Set(name !== '' && name !== 'default' ? [name] : []);
}

/** `getPVCNames`: every volume's `persistentVolumeClaim.claimName` (not exclusive with other sources). */
function pvcNames(podSpec: Json): Set<string> {
  const names = new Set<string>();
  for (const volume of objects(podSpec['volumes'])) {
    const claim = str(child(volume, 'persistentVolumeClaim'), 'claimName');
    if (claim !== '') names.add(claim);
  }
  return names;
}

function sorted(names: Set<string>): string[] {
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * `helper.GetDependenciesFromPodTemplate`: ConfigMaps, then Secrets, then ServiceAccounts, then
 * PersistentVolumeClaims, each kind deduplicated. Karmada iterates Go sets, so its order *within* a
 * kind is random; here it is ascending by name.
 */
export function podSpecDependencies(podSpec: unknown, namespace: string): DependencyRef[] {
  if (!isObject(podSpec)) return [];
  const out: DependencyRef[] = [];
  const add = (kind: string, names: Set<string>): void => {
    for (const name of sorted(names)) out.push({ apiVersion: 'v1', kind, namespace, name });
  };
  add('ConfigMap', configMapNames(podSpec));
  add('Secret', secretNames(podSpec));
  add('ServiceAccount', serviceAccountNames(podSpec));
  add('PersistentVolumeClaim', pvcNames(podSpec));
  return out;
}

function namespaceOf(template: KubeObject): string {
  return typeof template.metadata?.namespace === 'string' ? template.metadata.namespace : '';
}

/** `spec.template.spec` (Deployment, DaemonSet, StatefulSet, Job). */
function templatePodSpec(template: KubeObject): unknown {
  return child(child(template['spec'], 'template'), 'spec');
}

/** `getStatefulSetDependencies`: PVCs named like one of `spec.volumeClaimTemplates` are placeholders, not dependencies. */
function statefulSetDependencies(template: KubeObject): DependencyRef[] {
  const deps = podSpecDependencies(templatePodSpec(template), namespaceOf(template));
  const claimTemplates = new Set(
    objects(field(template['spec'], 'volumeClaimTemplates')).map((t) => str(child(t, 'metadata'), 'name')),
  );
  return deps.filter((d) => d.kind !== 'PersistentVolumeClaim' || !claimTemplates.has(d.name));
}

/** `getIngressDependencies`: one Secret per `spec.tls[]` entry (duplicates collapsed here). */
function ingressDependencies(template: KubeObject): DependencyRef[] {
  const namespace = namespaceOf(template);
  const out: DependencyRef[] = [];
  const seen = new Set<string>();
  for (const tls of objects(field(template['spec'], 'tls'))) {
    const name = str(tls, 'secretName');
    if (name === '') {
      throw new DependencyInterpretationError(
        `Ingress ${namespace}/${template.metadata?.name ?? ''}: dependency can not leave name and labelSelector all empty`,
      );
    }
    if (seen.has(name)) continue;
    seen.add(name);
    out.push({ apiVersion: 'v1', kind: 'Secret', namespace, name });
  }
  return out;
}

const INTERPRETERS: Record<string, (template: KubeObject) => DependencyRef[]> = {
  'apps/v1/Deployment': (t) => podSpecDependencies(templatePodSpec(t), namespaceOf(t)),
  'apps/v1/DaemonSet': (t) => podSpecDependencies(templatePodSpec(t), namespaceOf(t)),
  'apps/v1/StatefulSet': statefulSetDependencies,
  'batch/v1/Job': (t) => podSpecDependencies(templatePodSpec(t), namespaceOf(t)),
  'batch/v1/CronJob': (t) =>
    podSpecDependencies(
      child(child(child(child(t['spec'], 'jobTemplate'), 'spec'), 'template'), 'spec'),
      namespaceOf(t),
    ),
  'v1/Pod': (t) => podSpecDependencies(t['spec'], namespaceOf(t)),
  'networking.k8s.io/v1/Ingress': ingressDependencies,
};

/**
 * Whether Karmada's default interpreter has an `InterpretDependency` hook for this exact
 * `apiVersion`/`kind`. When it has none the distributor's `Reconcile` returns early: no finalizer, no
 * dependencies annotation, and no orphan clean-up — so "no interpreter" must not be treated as "no
 * dependencies".
 */
export function interpretsDependencies(template: Pick<KubeObject, 'apiVersion' | 'kind'>): boolean {
  return Object.hasOwn(INTERPRETERS, `${template.apiVersion}/${template.kind}`);
}

/**
 * InterpretDependency for native kinds (`apps/v1` Deployment, DaemonSet, StatefulSet; `batch/v1` Job,
 * CronJob via `spec.jobTemplate.spec.template`; `v1` Pod; `networking.k8s.io/v1` Ingress TLS
 * secrets): the ConfigMaps, Secrets, ServiceAccounts (not `default`) and PersistentVolumeClaims the
 * pod template references — image pull secrets, env `valueFrom`, `envFrom`, init and ephemeral
 * containers, secret/configMap/projected and secret-bearing plugin volumes — in Karmada's kind order,
 * deduplicated, ascending by name within a kind (Karmada's own order there is random). A StatefulSet's
 * PVC volumes named like one of its `volumeClaimTemplates` are not dependencies. All references are
 * in the workload's namespace. Other kinds (including ReplicaSet and other API versions): `[]`.
 *
 * @throws {DependencyInterpretationError} for an Ingress TLS entry without `secretName` (Karmada fails
 * the interpretation; see the class).
 */
export function interpretDependencies(template: KubeObject): DependencyRef[] {
  const key = `${template.apiVersion}/${template.kind}`;
  return Object.hasOwn(INTERPRETERS, key) ? INTERPRETERS[key]!(template) : [];
}
