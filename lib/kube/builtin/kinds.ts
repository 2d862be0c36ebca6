/**
 * The built-in kinds a server can serve (core/v1, apps/v1, batch/v1, ...), with kubectl's columns,
 * Kubernetes' defaults for the fields controllers read, and the semantic checks kube-apiserver makes
 * beyond the schema.
 */
import type { KubeObject } from '../../api/object.ts';
import { fromLabelSelector, matchesRequirements } from '../../api/labels.ts';
import { type FieldError, fieldError } from '../base/field-errors.ts';
import { ALL_VERBS, type PrinterColumn, type ResourceDef, type ResourceStrategy } from '../catalog/resources.ts';
import type { Schema } from '../base/schema.ts';
import { AGE_COLUMN, age, NAME_COLUMN } from '../catalog/table.ts';
import { coreEventSchema, coreEventStrategy, eventsV1Schema, eventsV1Strategy, eventsV1View } from './events.ts';
import { reviewDefs } from './reviews.ts';
import { SCHEMAS } from './schemas.ts';

type Obj = Record<string, unknown>;
const field = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Obj)[k] : undefined), o);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function def(
  partial: Pick<ResourceDef, 'group' | 'version' | 'kind' | 'plural' | 'namespaced'> & {
    shortNames?: string[];
    categories?: string[];
    status?: boolean;
    schema: Schema;
    columns?: PrinterColumn[];
    nameRule?: ResourceDef['nameRule'];
    strategy?: ResourceStrategy;
    verbs?: ResourceDef['verbs'];
    scale?: boolean;
  },
): ResourceDef {
  return {
    group: partial.group,
    version: partial.version,
    kind: partial.kind,
    listKind: `${partial.kind}List`,
    plural: partial.plural,
    singular: partial.kind.toLowerCase(),
    shortNames: partial.shortNames ?? [],
    categories: partial.categories ?? [],
    namespaced: partial.namespaced,
    verbs: [...(partial.verbs ?? ALL_VERBS)],
    statusSubresource: partial.status ?? false,
    schema: partial.schema,
    printerColumns: partial.columns ?? [AGE_COLUMN],
    strategicMergePatch: true,
    nameRule: partial.nameRule ?? 'subdomain',
    preferred: true,
    origin: 'built-in',
    ...(partial.strategy ? { strategy: partial.strategy } : {}),
    ...(partial.scale
      ? {
          scale: {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.selector',
          },
        }
      : {}),
  };
}

const column = (name: string, cell: PrinterColumn['cell'], extra: Partial<PrinterColumn> = {}): PrinterColumn => ({
  name,
  type: 'string',
  cell,
  ...extra,
});

function containers(o: KubeObject, ...templatePath: string[]): Obj[] {
  const list = field(o, ...templatePath, 'containers');
  return Array.isArray(list) ? (list as Obj[]) : [];
}

function selectorText(sel: unknown): string {
  if (!sel || typeof sel !== 'object') return '<none>';
  const labels = Object.entries((sel as Obj).matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  return labels.length ? labels.join(',') : '<none>';
}

/** Deployment, StatefulSet, ReplicaSet, Job: the selector must select the template's labels. */
function selectorMatchesTemplate(o: KubeObject, templatePath: string[]): FieldError[] {
  const selector = field(o, 'spec', 'selector') as Parameters<typeof fromLabelSelector>[0] | undefined;
  const labels = field(o, ...templatePath, 'metadata', 'labels') as Record<string, string> | undefined;
  if (!selector) return [];
  const empty = Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
  if (empty) return [fieldError.invalid('spec.selector', selector, 'empty selector is invalid for deployment')];
  try {
    if (!matchesRequirements(fromLabelSelector(selector), labels ?? {})) {
      return [
        fieldError.invalid(
          [...templatePath, 'metadata', 'labels'].join('.'),
          labels ?? {},
          '`selector` does not match template `labels`',
        ),
      ];
    }
  } catch (err) {
    return [fieldError.invalid('spec.selector', selector, (err as Error).message)];
  }
  return [];
}

function uniqueContainerNames(o: KubeObject, podSpecPath: string[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const listName of ['initContainers', 'containers']) {
    const list = field(o, ...podSpecPath, listName);
    if (!Array.isArray(list)) continue;
    const seen = new Set<string>();
    list.forEach((c, i) => {
      const name = (c as Obj).name as string;
      if (seen.has(name)) errors.push(fieldError.duplicate(`${[...podSpecPath, listName].join('.')}[${i}].name`, name));
      seen.add(name);
    });
  }
  return errors;
}

/** Kubernetes' defaults for a pod template's fields that controllers and members read. */
function defaultPodSpec(spec: Obj | undefined): void {
  if (!spec) return;
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.securityContext ??= {};
  for (const listName of ['initContainers', 'containers']) {
    const list = spec[listName];
    if (!Array.isArray(list)) continue;
    for (const c of list as Obj[]) {
      const image = typeof c.image === 'string' ? c.image : '';
      const tag = image.includes('@') ? 'digest' : (image.split('/').pop() ?? '').split(':')[1];
      c.imagePullPolicy ??= tag === undefined || tag === 'latest' ? 'Always' : 'IfNotPresent';
      c.terminationMessagePath ??= '/dev/termination-log';
      c.terminationMessagePolicy ??= 'File';
      c.resources ??= {};
      if (Array.isArray(c.ports)) for (const p of c.ports as Obj[]) p.protocol ??= 'TCP';
    }
  }
}

const clone = <T>(v: T): T => structuredClone(v);

const workloadStrategy = (extraDefaults: (spec: Obj) => void = () => {}): ResourceStrategy => ({
  default(o) {
    const out = clone(o);
    const spec = (out.spec ??= {}) as Obj;
    extraDefaults(spec);
    defaultPodSpec(field(out, 'spec', 'template', 'spec') as Obj | undefined);
    return out;
  },
  validate: (o) => [
    ...selectorMatchesTemplate(o, ['spec', 'template']),
    ...uniqueContainerNames(o, ['spec', 'template', 'spec']),
  ],
});

const deploymentStrategy = workloadStrategy((spec) => {
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  const strategy = (spec.strategy ??= {}) as Obj;
  strategy.type ??= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {}) as Obj;
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
});

const jobStrategy: ResourceStrategy = {
  default(o) {
    const out = clone(o);
    const spec = (out.spec ??= {}) as Obj;
    spec.parallelism ??= 1;
    spec.completions ??= spec.completionMode === 'Indexed' ? undefined : 1;
    if (spec.completions === undefined) delete spec.completions;
    spec.backoffLimit ??= 6;
    spec.completionMode ??= 'NonIndexed';
    spec.suspend ??= false;
    const podSpec = field(out, 'spec', 'template', 'spec') as Obj | undefined;
    const restart = podSpec?.restartPolicy;
    defaultPodSpec(podSpec);
    // A Job's pods must not restart forever: Kubernetes has no default here, validation asks for one.
    if (podSpec && restart === undefined) delete podSpec.restartPolicy;
    return out;
  },
  validate(o) {
    const errors = uniqueContainerNames(o, ['spec', 'template', 'spec']);
    const restart = field(o, 'spec', 'template', 'spec', 'restartPolicy');
    if (restart === undefined) {
      errors.push(fieldError.required('spec.template.spec.restartPolicy', 'valid values: "OnFailure", "Never"'));
    } else if (restart !== 'OnFailure' && restart !== 'Never') {
      errors.push(fieldError.notSupported('spec.template.spec.restartPolicy', restart, ['OnFailure', 'Never']));
    }
    return errors;
  },
};

const secretStrategy: ResourceStrategy = {
  default(o) {
    // Kubernetes folds stringData into data (base64) on write and never stores stringData.
    const out = clone(o);
    const stringData = out.stringData as Record<string, string> | undefined;
    if (stringData) {
      const data = (out.data ??= {}) as Record<string, string>;
      for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(v, 'utf8').toString('base64');
      delete out.stringData;
    }
    out.type ??= 'Opaque';
    return out;
  },
  validate(o) {
    const errors: FieldError[] = [];
    for (const [k, v] of Object.entries((o.data as Record<string, string> | undefined) ?? {})) {
      if (typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v)) {
        errors.push(fieldError.invalid(`data[${k}]`, v, 'must be base64-encoded'));
      }
    }
    return errors;
  },
};

const serviceStrategy: ResourceStrategy = {
  default(o) {
    const out = clone(o);
    const spec = (out.spec ??= {}) as Obj;
    spec.type ??= 'ClusterIP';
    spec.sessionAffinity ??= 'None';
    if (Array.isArray(spec.ports)) {
      for (const p of spec.ports as Obj[]) {
        p.protocol ??= 'TCP';
        p.targetPort ??= p.port;
      }
    }
    return out;
  },
  validate(o) {
    const type = field(o, 'spec', 'type');
    const ports = field(o, 'spec', 'ports');
    if (
      type !== 'ExternalName' &&
      (!Array.isArray(ports) || ports.length === 0) &&
      field(o, 'spec', 'clusterIP') !== 'None'
    ) {
      return [fieldError.required('spec.ports')];
    }
    return [];
  },
};

/**
 * Kubernetes keeps a terminating namespace alive with `spec.finalizers: [kubernetes]` until its
 * content is gone. Here the store's generic finalizer mechanism does that, so the same finalizer is
 * also put in `metadata.finalizers`; the namespace controller removes it once the namespace is empty.
 */
export const NAMESPACE_FINALIZER = 'kubernetes';

const namespaceStrategy: ResourceStrategy = {
  default(o, { operation }) {
    const out = clone(o);
    const spec = (out.spec ??= {}) as Obj;
    spec.finalizers ??= [NAMESPACE_FINALIZER];
    if (operation === 'CREATE' && !(out.metadata.finalizers ?? []).includes(NAMESPACE_FINALIZER)) {
      out.metadata.finalizers = [...(out.metadata.finalizers ?? []), NAMESPACE_FINALIZER];
    }
    return out;
  },
};

const deploymentColumns: PrinterColumn[] = [
  column('Ready', (o) => `${num(field(o, 'status', 'readyReplicas'))}/${num(field(o, 'spec', 'replicas'))}`),
  column('Up-to-date', (o) => num(field(o, 'status', 'updatedReplicas')), { type: 'integer' }),
  column('Available', (o) => num(field(o, 'status', 'availableReplicas')), { type: 'integer' }),
  AGE_COLUMN,
  column(
    'Containers',
    (o) =>
      containers(o, 'spec', 'template', 'spec')
        .map((c) => c.name)
        .join(','),
    { priority: 1 },
  ),
  column(
    'Images',
    (o) =>
      containers(o, 'spec', 'template', 'spec')
        .map((c) => c.image)
        .join(','),
    { priority: 1 },
  ),
  column('Selector', (o) => selectorText(field(o, 'spec', 'selector')), { priority: 1 }),
];

function jobStatus(o: KubeObject): string {
  const conditions = (field(o, 'status', 'conditions') as Obj[] | undefined) ?? [];
  const is = (t: string) => conditions.some((c) => c.type === t && c.status === 'True');
  if (is('Complete')) return 'Complete';
  if (is('Failed')) return 'Failed';
  if (is('Suspended')) return 'Suspended';
  return 'Running';
}

function podPhase(o: KubeObject): string {
  if (o.metadata.deletionTimestamp) return 'Terminating';
  return String(field(o, 'status', 'reason') ?? field(o, 'status', 'phase') ?? 'Pending');
}

function nodeStatus(o: KubeObject): string {
  const ready = ((field(o, 'status', 'conditions') as Obj[] | undefined) ?? []).find((c) => c.type === 'Ready');
  const base = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
  return field(o, 'spec', 'unschedulable') ? `${base},SchedulingDisabled` : base;
}

function nodeAddress(o: KubeObject, type: string): string {
  const addresses = (field(o, 'status', 'addresses') as Obj[] | undefined) ?? [];
  return String(addresses.find((a) => a.type === type)?.address ?? '<none>');
}

function servicePorts(o: KubeObject): string {
  const ports = (field(o, 'spec', 'ports') as Obj[] | undefined) ?? [];
  if (ports.length === 0) return '<none>';
  return ports.map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',');
}

function eventObject(o: KubeObject): string {
  const ref = (o.involvedObject ?? o.regarding) as Obj | undefined;
  return ref ? `${String(ref.kind ?? '').toLowerCase()}/${ref.name ?? ''}` : '';
}

/**
 * kubectl's event columns, for both API versions, as kube-apiserver prints them: no leading NAME
 * (it is a wide column at the end); LAST SEEN from the last time, the series, or the event time.
 */
const eventColumns: PrinterColumn[] = [
  column('Last Seen', (o, now) =>
    age(
      field(o, 'series', 'lastObservedTime') ??
        o.lastTimestamp ??
        o.deprecatedLastTimestamp ??
        o.eventTime ??
        o.metadata.creationTimestamp,
      now,
    ),
  ),
  column('Type', (o) => String(o.type ?? '')),
  column('Reason', (o) => String(o.reason ?? '')),
  column('Object', eventObject),
  column('Subobject', (o) => String(field(o.involvedObject ?? o.regarding, 'fieldPath') ?? ''), { priority: 1 }),
  column('Source', eventSource, { priority: 1 }),
  column('Message', (o) => String(o.message ?? o.note ?? '')),
  column(
    'First Seen',
    (o, now) => age(o.firstTimestamp ?? o.deprecatedFirstTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp, now),
    { priority: 1 },
  ),
  column('Count', (o) => num(field(o, 'series', 'count') ?? o.count ?? o.deprecatedCount ?? 1), {
    priority: 1,
    type: 'integer',
  }),
  { ...NAME_COLUMN, priority: 1 },
];

function eventSource(o: KubeObject): string {
  const source = (o.source ?? o.deprecatedSource ?? {}) as Obj;
  if (source.component) return source.host ? `${source.component}, ${source.host}` : String(source.component);
  return String(o.reportingComponent ?? o.reportingController ?? '');
}

/** Every built-in kind the control plane serves. */
export function controlPlaneBuiltins(): ResourceDef[] {
  return [
    def({
      group: '',
      version: 'v1',
      kind: 'Namespace',
      plural: 'namespaces',
      namespaced: false,
      shortNames: ['ns'],
      status: true,
      nameRule: 'label',
      schema: SCHEMAS.namespace(),
      strategy: namespaceStrategy,
      columns: [column('Status', (o) => String(field(o, 'status', 'phase') ?? 'Active')), AGE_COLUMN],
    }),
    def({
      group: '',
      version: 'v1',
      kind: 'ConfigMap',
      plural: 'configmaps',
      namespaced: true,
      shortNames: ['cm'],
      schema: SCHEMAS.configMap(),
      columns: [
        column(
          'Data',
          (o) => Object.keys((o.data as Obj) ?? {}).length + Object.keys((o.binaryData as Obj) ?? {}).length,
          { type: 'integer' },
        ),
        AGE_COLUMN,
      ],
    }),
    def({
      group: '',
      version: 'v1',
      kind: 'Secret',
      plural: 'secrets',
      namespaced: true,
      schema: SCHEMAS.secret(),
      strategy: secretStrategy,
      columns: [
        column('Type', (o) => String(o.type ?? 'Opaque')),
        column('Data', (o) => Object.keys((o.data as Obj) ?? {}).length, { type: 'integer' }),
        AGE_COLUMN,
      ],
    }),
    def({
      group: '',
      version: 'v1',
      kind: 'ServiceAccount',
      plural: 'serviceaccounts',
      namespaced: true,
      shortNames: ['sa'],
      schema: SCHEMAS.serviceAccount(),
      columns: [column('Secrets', (o) => ((o.secrets as unknown[]) ?? []).length, { type: 'integer' }), AGE_COLUMN],
    }),
    def({
      group: '',
      version: 'v1',
      kind: 'Service',
      plural: 'services',
      namespaced: true,
      shortNames: ['svc'],
      categories: ['all'],
      status: true,
      schema: SCHEMAS.service(),
      strategy: serviceStrategy,
      columns: [
        column('Type', (o) => String(field(o, 'spec', 'type') ?? 'ClusterIP')),
        column('Cluster-IP', (o) => String(field(o, 'spec', 'clusterIP') ?? '<none>')),
        column(
          'External-IP',
          (o) => ((field(o, 'spec', 'externalIPs') as string[] | undefined) ?? []).join(',') || '<none>',
        ),
        column('Port(s)', servicePorts),
        AGE_COLUMN,
        column(
          'Selector',
          (o) =>
            Object.entries((field(o, 'spec', 'selector') as Obj) ?? {})
              .map(([k, v]) => `${k}=${v}`)
              .join(',') || '<none>',
          {
            priority: 1,
          },
        ),
      ],
    }),
    def({
      group: '',
      version: 'v1',
      kind: 'Pod',
      plural: 'pods',
      namespaced: true,
      shortNames: ['po'],
      categories: ['all'],
      status: true,
      schema: SCHEMAS.pod(),
      strategy: {
        default(o) {
          const out = clone(o);
          defaultPodSpec(out.spec as Obj | undefined);
          return out;
        },
        validate: (o) => uniqueContainerNames(o, ['spec']),
      },
      columns: [
        column('Ready', (o) => {
          const statuses = (field(o, 'status', 'containerStatuses') as Obj[] | undefined) ?? [];
          return `${statuses.filter((s) => s.ready).length}/${containers(o, 'spec').length}`;
        }),
        column('Status', podPhase),
        column(
          'Restarts',
          (o) =>
            ((field(o, 'status', 'containerStatuses') as Obj[] | undefined) ?? []).reduce(
              (n, s) => n + num(s.restartCount),
              0,
            ),
          {
            type: 'integer',
          },
        ),
        AGE_COLUMN,
        column('IP', (o) => String(field(o, 'status', 'podIP') ?? '<none>'), { priority: 1 }),
        column('Node', (o) => String(field(o, 'spec', 'nodeName') ?? '<none>'), { priority: 1 }),
      ],
    }),
    def({
      group: '',
      version: 'v1',
      kind: 'PersistentVolumeClaim',
      plural: 'persistentvolumeclaims',
      namespaced: true,
      shortNames: ['pvc'],
      status: true,
      schema: SCHEMAS.persistentVolumeClaim(),
      columns: [
        column('Status', (o) => String(field(o, 'status', 'phase') ?? 'Pending')),
        column('Volume', (o) => String(field(o, 'spec', 'volumeName') ?? '')),
        column('Capacity', (o) => String(field(o, 'status', 'capacity', 'storage') ?? '')),
        column('Access Modes', (o) => ((field(o, 'spec', 'accessModes') as string[] | undefined) ?? []).join(',')),
        column('StorageClass', (o) => String(field(o, 'spec', 'storageClassName') ?? '<unset>')),
        AGE_COLUMN,
      ],
    }),
    def({
      group: '',
      version: 'v1',
      kind: 'Event',
      plural: 'events',
      namespaced: true,
      shortNames: ['ev'],
      nameRule: 'path-segment',
      schema: coreEventSchema(),
      strategy: coreEventStrategy,
      columns: eventColumns,
    }),
    {
      ...def({
        group: 'events.k8s.io',
        version: 'v1',
        kind: 'Event',
        plural: 'events',
        namespaced: true,
        shortNames: ['ev'],
        nameRule: 'path-segment',
        schema: eventsV1Schema(),
        strategy: eventsV1Strategy,
        columns: eventColumns,
      }),
      view: eventsV1View,
    },
    def({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
      scale: true,
      plural: 'deployments',
      namespaced: true,
      shortNames: ['deploy'],
      categories: ['all'],
      status: true,
      schema: SCHEMAS.deployment(),
      strategy: deploymentStrategy,
      columns: deploymentColumns,
    }),
    def({
      group: 'apps',
      version: 'v1',
      kind: 'StatefulSet',
      scale: true,
      plural: 'statefulsets',
      namespaced: true,
      shortNames: ['sts'],
      categories: ['all'],
      status: true,
      schema: SCHEMAS.statefulSet(),
      strategy: workloadStrategy((spec) => {
        spec.replicas ??= 1;
        spec.podManagementPolicy ??= 'OrderedReady';
        spec.revisionHistoryLimit ??= 10;
      }),
      columns: [
        column('Ready', (o) => `${num(field(o, 'status', 'readyReplicas'))}/${num(field(o, 'spec', 'replicas'))}`),
        AGE_COLUMN,
      ],
    }),
    def({
      group: 'apps',
      version: 'v1',
      kind: 'DaemonSet',
      plural: 'daemonsets',
      namespaced: true,
      shortNames: ['ds'],
      categories: ['all'],
      status: true,
      schema: SCHEMAS.daemonSet(),
      strategy: workloadStrategy((spec) => {
        spec.revisionHistoryLimit ??= 10;
      }),
      columns: [
        column('Desired', (o) => num(field(o, 'status', 'desiredNumberScheduled')), { type: 'integer' }),
        column('Current', (o) => num(field(o, 'status', 'currentNumberScheduled')), { type: 'integer' }),
        column('Ready', (o) => num(field(o, 'status', 'numberReady')), { type: 'integer' }),
        column('Up-to-date', (o) => num(field(o, 'status', 'updatedNumberScheduled')), { type: 'integer' }),
        column('Available', (o) => num(field(o, 'status', 'numberAvailable')), { type: 'integer' }),
        column(
          'Node Selector',
          (o) =>
            Object.entries((field(o, 'spec', 'template', 'spec', 'nodeSelector') as Obj) ?? {})
              .map(([k, v]) => `${k}=${v}`)
              .join(',') || '<none>',
        ),
        AGE_COLUMN,
      ],
    }),
    def({
      group: 'apps',
      version: 'v1',
      kind: 'ReplicaSet',
      scale: true,
      plural: 'replicasets',
      namespaced: true,
      shortNames: ['rs'],
      categories: ['all'],
      status: true,
      schema: SCHEMAS.replicaSet(),
      strategy: workloadStrategy((spec) => {
        spec.replicas ??= 1;
      }),
      columns: [
        column('Desired', (o) => num(field(o, 'spec', 'replicas')), { type: 'integer' }),
        column('Current', (o) => num(field(o, 'status', 'replicas')), { type: 'integer' }),
        column('Ready', (o) => num(field(o, 'status', 'readyReplicas')), { type: 'integer' }),
        AGE_COLUMN,
      ],
    }),
    def({
      group: 'batch',
      version: 'v1',
      kind: 'Job',
      plural: 'jobs',
      namespaced: true,
      categories: ['all'],
      status: true,
      schema: SCHEMAS.job(),
      strategy: jobStrategy,
      columns: [
        column('Status', jobStatus),
        column('Completions', (o) => `${num(field(o, 'status', 'succeeded'))}/${field(o, 'spec', 'completions') ?? 1}`),
        column('Duration', (o, now) => {
          const start = field(o, 'status', 'startTime');
          if (typeof start !== 'string') return '';
          const end = field(o, 'status', 'completionTime');
          return age(start, typeof end === 'string' ? Date.parse(end) : now);
        }),
        AGE_COLUMN,
      ],
    }),
    def({
      group: 'batch',
      version: 'v1',
      kind: 'CronJob',
      plural: 'cronjobs',
      namespaced: true,
      shortNames: ['cj'],
      categories: ['all'],
      status: true,
      schema: SCHEMAS.cronJob(),
      columns: [
        column('Schedule', (o) => String(field(o, 'spec', 'schedule') ?? '')),
        column('Timezone', (o) => String(field(o, 'spec', 'timeZone') ?? '<none>')),
        column('Suspend', (o) => String(field(o, 'spec', 'suspend') ?? false)),
        column('Active', (o) => ((field(o, 'status', 'active') as unknown[]) ?? []).length, { type: 'integer' }),
        column('Last Schedule', (o, now) =>
          field(o, 'status', 'lastScheduleTime') ? age(field(o, 'status', 'lastScheduleTime'), now) : '<none>',
        ),
        AGE_COLUMN,
      ],
    }),
    def({
      group: 'coordination.k8s.io',
      version: 'v1',
      kind: 'Lease',
      plural: 'leases',
      namespaced: true,
      schema: SCHEMAS.lease(),
      columns: [column('Holder', (o) => String(field(o, 'spec', 'holderIdentity') ?? '')), AGE_COLUMN],
    }),
    def({
      group: 'networking.k8s.io',
      version: 'v1',
      kind: 'Ingress',
      plural: 'ingresses',
      namespaced: true,
      shortNames: ['ing'],
      status: true,
      schema: SCHEMAS.opaque(),
    }),
    def({
      group: 'autoscaling',
      version: 'v2',
      kind: 'HorizontalPodAutoscaler',
      plural: 'horizontalpodautoscalers',
      namespaced: true,
      shortNames: ['hpa'],
      categories: ['all'],
      status: true,
      schema: SCHEMAS.opaque(),
    }),
    def({
      group: 'policy',
      version: 'v1',
      kind: 'PodDisruptionBudget',
      plural: 'poddisruptionbudgets',
      namespaced: true,
      shortNames: ['pdb'],
      status: true,
      schema: SCHEMAS.opaque(),
    }),
    ...[
      ['ResourceQuota', 'resourcequotas', true, ['quota']],
      ['LimitRange', 'limitranges', true, ['limits']],
      ['PersistentVolume', 'persistentvolumes', false, ['pv']],
    ].map(([kind, plural, namespaced, shortNames]) =>
      def({
        group: '',
        version: 'v1',
        kind: kind as string,
        plural: plural as string,
        namespaced: namespaced as boolean,
        shortNames: shortNames as string[],
        status: true,
        schema: SCHEMAS.opaque(),
      }),
    ),
    def({
      group: '',
      version: 'v1',
      kind: 'Endpoints',
      plural: 'endpoints',
      namespaced: true,
      shortNames: ['ep'],
      schema: SCHEMAS.endpoints(),
    }),
    def({
      group: 'discovery.k8s.io',
      version: 'v1',
      kind: 'EndpointSlice',
      plural: 'endpointslices',
      namespaced: true,
      schema: SCHEMAS.endpointSlice(),
    }),
    def({
      group: 'networking.k8s.io',
      version: 'v1',
      kind: 'NetworkPolicy',
      plural: 'networkpolicies',
      namespaced: true,
      shortNames: ['netpol'],
      schema: SCHEMAS.opaque(),
    }),
    def({
      group: 'networking.k8s.io',
      version: 'v1',
      kind: 'IngressClass',
      plural: 'ingressclasses',
      namespaced: false,
      schema: SCHEMAS.opaque(),
    }),
    ...(['Role', 'ClusterRole'] as const).map((kind) =>
      def({
        group: 'rbac.authorization.k8s.io',
        version: 'v1',
        kind,
        plural: `${kind.toLowerCase()}s`,
        namespaced: kind === 'Role',
        nameRule: 'path-segment',
        schema: SCHEMAS.role(kind === 'ClusterRole'),
        columns: [column('Created At', (o) => String(o.metadata.creationTimestamp ?? ''))],
      }),
    ),
    ...(['RoleBinding', 'ClusterRoleBinding'] as const).map((kind) =>
      def({
        group: 'rbac.authorization.k8s.io',
        version: 'v1',
        kind,
        plural: `${kind.toLowerCase()}s`,
        namespaced: kind === 'RoleBinding',
        nameRule: 'path-segment',
        schema: SCHEMAS.roleBinding(),
        columns: [
          column('Role', (o) => `${field(o, 'roleRef', 'kind') ?? ''}/${field(o, 'roleRef', 'name') ?? ''}`),
          AGE_COLUMN,
        ],
      }),
    ),
    def({
      group: 'storage.k8s.io',
      version: 'v1',
      kind: 'StorageClass',
      plural: 'storageclasses',
      namespaced: false,
      shortNames: ['sc'],
      schema: SCHEMAS.storageClass(),
      columns: [
        column('Provisioner', (o) => String(o.provisioner ?? '')),
        column('ReclaimPolicy', (o) => String(o.reclaimPolicy ?? 'Delete')),
        column('VolumeBindingMode', (o) => String(o.volumeBindingMode ?? 'Immediate')),
        column('AllowVolumeExpansion', (o) => Boolean(o.allowVolumeExpansion), { type: 'boolean' }),
        AGE_COLUMN,
      ],
    }),
    def({
      group: 'scheduling.k8s.io',
      version: 'v1',
      kind: 'PriorityClass',
      plural: 'priorityclasses',
      namespaced: false,
      shortNames: ['pc'],
      schema: SCHEMAS.priorityClass(),
      columns: [
        column('Value', (o) => num(o.value), { type: 'integer' }),
        column('Global-Default', (o) => Boolean(o.globalDefault), { type: 'boolean' }),
        AGE_COLUMN,
      ],
    }),
    def({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      kind: 'CustomResourceDefinition',
      plural: 'customresourcedefinitions',
      namespaced: false,
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      status: true,
      schema: SCHEMAS.customResourceDefinition(),
      columns: [column('Created At', (o) => String(o.metadata.creationTimestamp ?? ''))],
    }),
    ...reviewDefs(),
  ];
}

/** Node: served by member clusters (the simulator), not by the control plane. */
export function nodeDef(): ResourceDef {
  return def({
    group: '',
    version: 'v1',
    kind: 'Node',
    plural: 'nodes',
    namespaced: false,
    shortNames: ['no'],
    status: true,
    schema: SCHEMAS.node(),
    columns: [
      column('Status', nodeStatus),
      column(
        'Roles',
        (o) =>
          Object.keys(o.metadata.labels ?? {})
            .filter((k) => k.startsWith('node-role.kubernetes.io/'))
            .map((k) => k.slice('node-role.kubernetes.io/'.length))
            .join(',') || '<none>',
      ),
      AGE_COLUMN,
      column('Version', (o) => String(field(o, 'status', 'nodeInfo', 'kubeletVersion') ?? '')),
      column('Internal-IP', (o) => nodeAddress(o, 'InternalIP'), { priority: 1 }),
      column('External-IP', (o) => nodeAddress(o, 'ExternalIP'), { priority: 1 }),
      column('OS-Image', (o) => String(field(o, 'status', 'nodeInfo', 'osImage') ?? '<unknown>'), { priority: 1 }),
      column('Kernel-Version', (o) => String(field(o, 'status', 'nodeInfo', 'kernelVersion') ?? '<unknown>'), {
        priority: 1,
      }),
      column(
        'Container-Runtime',
        (o) => String(field(o, 'status', 'nodeInfo', 'containerRuntimeVersion') ?? '<unknown>'),
        { priority: 1 },
      ),
    ],
  });
}
