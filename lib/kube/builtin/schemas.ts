/**
 * Schemas of the built-in kinds, written by hand and kept compact: every field a manifest commonly
 * sets is declared (so a typo such as `spec.replica` is an unknown field, and a type error is
 * caught), with Kubernetes' own patch and list semantics (`containers` merge by `name`, `ports` by
 * `containerPort`, ...). Subtrees that are large and rarely hand-written (affinity, probes, security
 * contexts, volume sources) are left open (`x-kubernetes-preserve-unknown-fields`) rather than
 * half-declared: better to accept a valid field than to reject it wrongly.
 */
import type { Schema } from '../base/schema.ts';

export const str = (extra: Partial<Schema> = {}): Schema => ({ type: 'string', ...extra });
export const int = (extra: Partial<Schema> = {}): Schema => ({ type: 'integer', ...extra });
export const int32 = (extra: Partial<Schema> = {}): Schema => ({ type: 'integer', format: 'int32', ...extra });
export const bool = (): Schema => ({ type: 'boolean' });
export const open = (extra: Partial<Schema> = {}): Schema => ({
  'x-kubernetes-preserve-unknown-fields': true,
  ...extra,
});
export const openObject = (extra: Partial<Schema> = {}): Schema => ({
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
  ...extra,
});
export const intOrString = (): Schema => ({ 'x-kubernetes-int-or-string': true });
export const quantity = intOrString;
export const obj = (properties: Record<string, Schema>, extra: Partial<Schema> = {}): Schema => ({
  type: 'object',
  properties,
  ...extra,
});
export const mapOf = (values: Schema): Schema => ({ type: 'object', additionalProperties: values });
export const listOf = (items: Schema, extra: Partial<Schema> = {}): Schema => ({ type: 'array', items, ...extra });
export const strings = (): Schema => listOf(str());
/** A list merged by `key` under strategic merge patch and keyed by it under server-side apply. */
export const keyedList = (items: Schema, key: string, strategy = 'merge', keys: string[] = [key]): Schema => ({
  type: 'array',
  items,
  'x-kubernetes-patch-strategy': strategy,
  'x-kubernetes-patch-merge-key': key,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': keys,
});

export const objectMeta = (): Schema =>
  obj({
    name: str(),
    generateName: str(),
    namespace: str(),
    selfLink: str(),
    uid: str(),
    resourceVersion: str(),
    generation: int(),
    creationTimestamp: str({ format: 'date-time', nullable: true }),
    deletionTimestamp: str({ format: 'date-time' }),
    deletionGracePeriodSeconds: int(),
    labels: mapOf(str()),
    annotations: mapOf(str()),
    ownerReferences: keyedList(
      obj(
        {
          apiVersion: str(),
          kind: str(),
          name: str(),
          uid: str(),
          controller: bool(),
          blockOwnerDeletion: bool(),
        },
        { required: ['apiVersion', 'kind', 'name', 'uid'] },
      ),
      'uid',
    ),
    finalizers: listOf(str(), { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' }),
    managedFields: listOf(openObject()),
  });

export const labelSelector = (): Schema =>
  obj(
    {
      matchLabels: mapOf(str()),
      matchExpressions: listOf(
        obj(
          { key: str(), operator: str(), values: listOf(str(), { 'x-kubernetes-list-type': 'atomic' }) },
          { required: ['key', 'operator'] },
        ),
      ),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  );

const resourceRequirements = (): Schema =>
  obj({ limits: mapOf(quantity()), requests: mapOf(quantity()), claims: listOf(openObject()) });

export const container = (): Schema =>
  obj(
    {
      name: str(),
      image: str(),
      command: strings(),
      args: strings(),
      workingDir: str(),
      ports: keyedList(
        obj(
          {
            name: str(),
            containerPort: int32(),
            protocol: str({ enum: ['TCP', 'UDP', 'SCTP'], default: 'TCP' }),
            hostPort: int32(),
            hostIP: str(),
          },
          { required: ['containerPort'] },
        ),
        'containerPort',
        'merge',
        ['containerPort', 'protocol'],
      ),
      env: keyedList(obj({ name: str(), value: str(), valueFrom: openObject() }, { required: ['name'] }), 'name'),
      envFrom: listOf(openObject()),
      resources: resourceRequirements(),
      resizePolicy: listOf(openObject()),
      restartPolicy: str(),
      volumeMounts: keyedList(
        obj(
          {
            name: str(),
            mountPath: str(),
            readOnly: bool(),
            recursiveReadOnly: str(),
            subPath: str(),
            subPathExpr: str(),
            mountPropagation: str(),
          },
          { required: ['name', 'mountPath'] },
        ),
        'mountPath',
      ),
      volumeDevices: keyedList(
        obj({ name: str(), devicePath: str() }, { required: ['name', 'devicePath'] }),
        'devicePath',
      ),
      livenessProbe: openObject(),
      readinessProbe: openObject(),
      startupProbe: openObject(),
      lifecycle: openObject(),
      terminationMessagePath: str(),
      terminationMessagePolicy: str(),
      imagePullPolicy: str({ enum: ['Always', 'IfNotPresent', 'Never'] }),
      securityContext: openObject(),
      stdin: bool(),
      stdinOnce: bool(),
      tty: bool(),
    },
    { required: ['name'] },
  );

export const podSpec = (): Schema =>
  obj(
    {
      volumes: keyedList(
        obj({ name: str() }, { required: ['name'], 'x-kubernetes-preserve-unknown-fields': true }),
        'name',
        'merge,retainKeys',
      ),
      initContainers: keyedList(container(), 'name'),
      containers: keyedList(container(), 'name'),
      ephemeralContainers: keyedList(openObject({ properties: { name: str() } }), 'name'),
      restartPolicy: str({ enum: ['Always', 'OnFailure', 'Never'] }),
      terminationGracePeriodSeconds: int(),
      activeDeadlineSeconds: int(),
      dnsPolicy: str(),
      nodeSelector: mapOf(str()),
      serviceAccountName: str(),
      serviceAccount: str(),
      automountServiceAccountToken: bool(),
      nodeName: str(),
      hostNetwork: bool(),
      hostPID: bool(),
      hostIPC: bool(),
      shareProcessNamespace: bool(),
      securityContext: openObject(),
      imagePullSecrets: keyedList(obj({ name: str() }), 'name'),
      hostname: str(),
      subdomain: str(),
      affinity: openObject(),
      schedulerName: str(),
      tolerations: listOf(openObject()),
      hostAliases: keyedList(openObject({ properties: { ip: str() } }), 'ip'),
      priorityClassName: str(),
      priority: int32(),
      dnsConfig: openObject(),
      readinessGates: listOf(openObject()),
      runtimeClassName: str(),
      enableServiceLinks: bool(),
      preemptionPolicy: str(),
      overhead: mapOf(quantity()),
      topologySpreadConstraints: keyedList(
        openObject({ properties: { topologyKey: str(), whenUnsatisfiable: str() } }),
        'topologyKey',
        'merge',
        ['topologyKey', 'whenUnsatisfiable'],
      ),
      setHostnameAsFQDN: bool(),
      os: openObject(),
      hostUsers: bool(),
      schedulingGates: keyedList(obj({ name: str() }), 'name'),
      resourceClaims: keyedList(openObject({ properties: { name: str() } }), 'name', 'merge,retainKeys'),
      resources: resourceRequirements(),
    },
    { required: ['containers'] },
  );

export const podTemplateSpec = (): Schema => obj({ metadata: objectMeta(), spec: podSpec() });

/** The top-level schema of a kind: apiVersion, kind, metadata, and the given fields. */
export const topLevel = (properties: Record<string, Schema>, required: string[] = []): Schema =>
  obj({ apiVersion: str(), kind: str(), metadata: objectMeta(), ...properties }, required.length ? { required } : {});

const replicas = () => int32({ minimum: 0 });

export const SCHEMAS = {
  namespace: () => topLevel({ spec: obj({ finalizers: strings() }), status: openObject() }),
  configMap: () => topLevel({ data: mapOf(str()), binaryData: mapOf(str()), immutable: bool() }),
  secret: () => topLevel({ data: mapOf(str()), stringData: mapOf(str()), type: str(), immutable: bool() }),
  serviceAccount: () =>
    topLevel({
      secrets: keyedList(openObject({ properties: { name: str() } }), 'name'),
      imagePullSecrets: listOf(obj({ name: str() })),
      automountServiceAccountToken: bool(),
    }),
  service: () =>
    topLevel({
      spec: obj({
        ports: keyedList(
          obj(
            {
              name: str(),
              protocol: str({ enum: ['TCP', 'UDP', 'SCTP'], default: 'TCP' }),
              appProtocol: str(),
              port: int32(),
              targetPort: intOrString(),
              nodePort: int32(),
            },
            { required: ['port'] },
          ),
          'port',
          'merge',
          ['port', 'protocol'],
        ),
        selector: mapOf(str()),
        clusterIP: str(),
        clusterIPs: strings(),
        type: str({ enum: ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'] }),
        externalIPs: strings(),
        sessionAffinity: str(),
        loadBalancerIP: str(),
        loadBalancerSourceRanges: strings(),
        externalName: str(),
        externalTrafficPolicy: str(),
        healthCheckNodePort: int32(),
        publishNotReadyAddresses: bool(),
        sessionAffinityConfig: openObject(),
        ipFamilies: strings(),
        ipFamilyPolicy: str(),
        allocateLoadBalancerNodePorts: bool(),
        loadBalancerClass: str(),
        internalTrafficPolicy: str(),
        trafficDistribution: str(),
      }),
      status: openObject(),
    }),
  pod: () => topLevel({ spec: podSpec(), status: openObject() }),
  persistentVolumeClaim: () =>
    topLevel({
      spec: obj({
        accessModes: strings(),
        selector: labelSelector(),
        resources: resourceRequirements(),
        volumeName: str(),
        storageClassName: str(),
        volumeMode: str(),
        dataSource: openObject(),
        dataSourceRef: openObject(),
        volumeAttributesClassName: str(),
      }),
      status: openObject(),
    }),
  node: () => topLevel({ spec: openObject(), status: openObject() }),
  deployment: () =>
    topLevel({
      spec: obj(
        {
          replicas: replicas(),
          selector: labelSelector(),
          template: podTemplateSpec(),
          strategy: obj(
            {
              type: str({ enum: ['Recreate', 'RollingUpdate'] }),
              rollingUpdate: obj({ maxUnavailable: intOrString(), maxSurge: intOrString() }),
            },
            { 'x-kubernetes-patch-strategy': 'retainKeys' },
          ),
          minReadySeconds: int32({ minimum: 0 }),
          revisionHistoryLimit: int32({ minimum: 0 }),
          paused: bool(),
          progressDeadlineSeconds: int32({ minimum: 0 }),
        },
        { required: ['selector', 'template'] },
      ),
      status: openObject(),
    }),
  statefulSet: () =>
    topLevel({
      spec: obj(
        {
          replicas: replicas(),
          selector: labelSelector(),
          template: podTemplateSpec(),
          volumeClaimTemplates: listOf(openObject()),
          serviceName: str(),
          podManagementPolicy: str({ enum: ['OrderedReady', 'Parallel'] }),
          updateStrategy: openObject(),
          revisionHistoryLimit: int32(),
          minReadySeconds: int32(),
          persistentVolumeClaimRetentionPolicy: openObject(),
          ordinals: openObject(),
        },
        { required: ['selector', 'template'] },
      ),
      status: openObject(),
    }),
  daemonSet: () =>
    topLevel({
      spec: obj(
        {
          selector: labelSelector(),
          template: podTemplateSpec(),
          updateStrategy: openObject(),
          minReadySeconds: int32(),
          revisionHistoryLimit: int32(),
        },
        { required: ['selector', 'template'] },
      ),
      status: openObject(),
    }),
  replicaSet: () =>
    topLevel({
      spec: obj(
        { replicas: replicas(), selector: labelSelector(), template: podTemplateSpec(), minReadySeconds: int32() },
        { required: ['selector'] },
      ),
      status: openObject(),
    }),
  job: () => topLevel({ spec: jobSpec(), status: openObject() }),
  cronJob: () =>
    topLevel({
      spec: obj(
        {
          schedule: str(),
          timeZone: str(),
          startingDeadlineSeconds: int(),
          concurrencyPolicy: str({ enum: ['Allow', 'Forbid', 'Replace'] }),
          suspend: bool(),
          jobTemplate: obj({ metadata: objectMeta(), spec: jobSpec() }),
          successfulJobsHistoryLimit: int32({ minimum: 0 }),
          failedJobsHistoryLimit: int32({ minimum: 0 }),
        },
        { required: ['schedule', 'jobTemplate'] },
      ),
      status: openObject(),
    }),
  lease: () =>
    topLevel({
      spec: obj({
        holderIdentity: str(),
        leaseDurationSeconds: int32(),
        acquireTime: str(),
        renewTime: str(),
        leaseTransitions: int32(),
        strategy: str(),
        preferredHolder: str(),
      }),
    }),
  /** Kinds served but not modelled field by field (accepted as written). */
  opaque: () => topLevel({ spec: openObject(), status: openObject() }),
  role: (cluster: boolean) =>
    topLevel({
      rules: listOf(
        obj({
          apiGroups: strings(),
          resources: strings(),
          verbs: strings(),
          resourceNames: strings(),
          nonResourceURLs: strings(),
        }),
      ),
      ...(cluster ? { aggregationRule: obj({ clusterRoleSelectors: listOf(labelSelector()) }) } : {}),
    }),
  roleBinding: () =>
    topLevel(
      {
        subjects: listOf(obj({ kind: str(), apiGroup: str(), name: str(), namespace: str() })),
        roleRef: obj({ apiGroup: str(), kind: str(), name: str() }, { required: ['kind', 'name'] }),
      },
      ['roleRef'],
    ),
  endpoints: () => topLevel({ subsets: listOf(openObject()) }),
  endpointSlice: () =>
    topLevel({ addressType: str(), endpoints: listOf(openObject()), ports: listOf(openObject()) }, ['addressType']),
  storageClass: () =>
    topLevel(
      {
        provisioner: str(),
        parameters: mapOf(str()),
        reclaimPolicy: str({ enum: ['Delete', 'Retain', 'Recycle'] }),
        mountOptions: strings(),
        allowVolumeExpansion: bool(),
        volumeBindingMode: str({ enum: ['Immediate', 'WaitForFirstConsumer'] }),
        allowedTopologies: listOf(openObject()),
      },
      ['provisioner'],
    ),
  priorityClass: () =>
    topLevel(
      {
        value: int32(),
        globalDefault: bool(),
        description: str(),
        preemptionPolicy: str({ enum: ['PreemptLowerPriority', 'Never'] }),
      },
      ['value'],
    ),
  customResourceDefinition: () =>
    topLevel({
      spec: obj(
        {
          group: str(),
          names: crdNames(),
          scope: str({ enum: ['Namespaced', 'Cluster'] }),
          versions: listOf(
            obj(
              {
                name: str(),
                served: bool(),
                storage: bool(),
                deprecated: bool(),
                deprecationWarning: str(),
                schema: obj({ openAPIV3Schema: openObject() }),
                subresources: obj({ status: openObject(), scale: openObject() }),
                additionalPrinterColumns: listOf(
                  obj(
                    { name: str(), type: str(), format: str(), description: str(), priority: int32(), jsonPath: str() },
                    { required: ['name', 'type', 'jsonPath'] },
                  ),
                ),
                selectableFields: listOf(openObject()),
              },
              { required: ['name', 'served', 'storage'] },
            ),
          ),
          conversion: openObject(),
          preserveUnknownFields: bool(),
        },
        { required: ['group', 'names', 'scope', 'versions'] },
      ),
      status: openObject(),
    }),
};

function crdNames(): Schema {
  return obj(
    { plural: str(), singular: str(), kind: str(), listKind: str(), shortNames: strings(), categories: strings() },
    { required: ['plural', 'kind'] },
  );
}

function jobSpec(): Schema {
  return obj(
    {
      parallelism: int32({ minimum: 0 }),
      completions: int32({ minimum: 0 }),
      activeDeadlineSeconds: int(),
      podFailurePolicy: openObject(),
      successPolicy: openObject(),
      backoffLimit: int32({ minimum: 0 }),
      backoffLimitPerIndex: int32(),
      maxFailedIndexes: int32(),
      selector: labelSelector(),
      manualSelector: bool(),
      template: podTemplateSpec(),
      ttlSecondsAfterFinished: int32(),
      completionMode: str({ enum: ['NonIndexed', 'Indexed'] }),
      suspend: bool(),
      podReplacementPolicy: str(),
      managedBy: str(),
    },
    { required: ['template'] },
  );
}
