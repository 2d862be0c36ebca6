/**
 * What simulated member clusters look like: names, topology (provider, region, zones), nodes and
 * their capacity, Kubernetes version, timings, and the status custom resources report. Defaults
 * give N members in distinct regions; a YAML file (`skctl up --members-config F`) overrides them.
 */
import * as z from 'zod/mini';
import { parseConfig } from '../config/validate.ts';
import { validateClusterName } from '../karmada/validation/cluster-name.ts';

const quantity = z.union([z.string(), z.number()]);

const memberSchema = z.strictObject({
  name: z.string().check(
    z.superRefine((name, ctx) => {
      for (const reason of validateClusterName(name)) ctx.addIssue({ code: 'custom', message: reason });
    }),
  ),
  provider: z._default(z.string(), 'aws'),
  region: z.string(),
  zones: z.array(z.string()).check(z.minLength(1)),
  kubernetesVersion: z._default(z.string().check(z.regex(/^v\d+\.\d+\.\d+$/)), 'v1.31.0'),
  nodes: z._default(z.number().check(z.int(), z.minimum(0), z.maximum(500)), 3),
  node: z._default(
    z.strictObject({
      cpu: z._default(quantity, '8'),
      memory: z._default(quantity, '32Gi'),
      pods: z._default(quantity, '110'),
      'ephemeral-storage': z._default(quantity, '100Gi'),
      /** Extended resources, e.g. nvidia.com/gpu. */
      extended: z.optional(z.record(z.string(), quantity)),
    }),
    { cpu: '8', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi' },
  ),
  /** Status merged into custom resources of these kinds (`Kind.group`), e.g. FlinkDeployment.flink.apache.org. */
  crdStatus: z.optional(z.record(z.string(), z.record(z.string(), z.unknown()))),
});

const fileSchema = z.strictObject({
  members: z.array(memberSchema).check(z.minLength(0), z.maxLength(50)),
  /** Milliseconds from a pod being scheduled to Running and Ready. */
  podStartupMs: z._default(z.number().check(z.int(), z.minimum(0)), 500),
  /** Milliseconds a Job's pod runs before it succeeds. */
  jobDurationMs: z._default(z.number().check(z.int(), z.minimum(0)), 2000),
});

export type MemberConfig = z.infer<typeof memberSchema>;
export type SimulationConfig = z.infer<typeof fileSchema>;

const REGIONS: { provider: string; region: string; zones: string[] }[] = [
  { provider: 'aws', region: 'us-east-1', zones: ['us-east-1a', 'us-east-1b'] },
  { provider: 'aws', region: 'eu-west-1', zones: ['eu-west-1a', 'eu-west-1b'] },
  { provider: 'gcp', region: 'asia-southeast1', zones: ['asia-southeast1-a', 'asia-southeast1-b'] },
  { provider: 'azure', region: 'westus2', zones: ['westus2-1', 'westus2-2'] },
  { provider: 'aws', region: 'ap-northeast-1', zones: ['ap-northeast-1a', 'ap-northeast-1c'] },
  { provider: 'gcp', region: 'europe-west4', zones: ['europe-west4-a', 'europe-west4-b'] },
];

/** Status a running instance of common multi-template CRDs reports (overridable per member). */
export const DEFAULT_CRD_STATUS: Record<string, Record<string, unknown>> = {
  // `$uid` becomes a stable id derived from the object (the job id a failover preserves). The Flink
  // operator reports `jobStatus.jobId`; Karmada's v1.15 example reads `{ .jobStatus.jobID }`, so the
  // simulator reports the id under both names.
  'FlinkDeployment.flink.apache.org': {
    lifecycleState: 'STABLE',
    jobStatus: { state: 'RUNNING', jobId: '$uid', jobID: '$uid' },
    jobManagerDeploymentStatus: 'READY',
  },
  'PyTorchJob.kubeflow.org': { conditions: [{ type: 'Running', status: 'True', reason: 'PyTorchJobRunning' }] },
  'TFJob.kubeflow.org': { conditions: [{ type: 'Running', status: 'True', reason: 'TFJobRunning' }] },
  'MPIJob.kubeflow.org': { conditions: [{ type: 'Running', status: 'True', reason: 'MPIJobRunning' }] },
  'RayJob.ray.io': { jobStatus: 'RUNNING', jobDeploymentStatus: 'Running' },
  // Karmada's RayCluster health rule reads these conditions, not only `state`.
  'RayCluster.ray.io': {
    state: 'ready',
    conditions: [
      { type: 'HeadPodReady', status: 'True' },
      { type: 'RayClusterProvisioned', status: 'True' },
    ],
  },
  'SparkApplication.sparkoperator.k8s.io': { applicationState: { state: 'RUNNING' } },
  'Job.batch.volcano.sh': { state: { phase: 'Running' } },
};

/** `count` members named member1..N, each in its own region. */
export function defaultSimulation(count: number): SimulationConfig {
  return parseConfig('simulated members', fileSchema, {
    members: Array.from({ length: count }, (_, i) => {
      const place = REGIONS[i % REGIONS.length]!;
      return { name: `member${i + 1}`, provider: place.provider, region: place.region, zones: place.zones };
    }),
  });
}

/** Validates a members file (already parsed from YAML). */
export function parseSimulation(value: unknown): SimulationConfig {
  return parseConfig('members configuration', fileSchema, value, {
    'members.name': 'a DNS label of at most 48 characters, e.g. member1',
  });
}
