/** The shape of a simulated workload controller (Deployment, StatefulSet, DaemonSet, Job). */
import type { KubeObject } from '../../api/object.ts';
import type { Obj } from './context.ts';

/** Extra fields of a pod a workload creates. */
export interface PodExtras {
  nodeName?: string;
  labels?: Record<string, string>;
}

/** What a workload controller sees and may do while matching its pods to its spec. */
export interface PodsInput {
  w: KubeObject;
  spec: Obj;
  template: Obj;
  /** The template's hash, as the pods' `pod-template-hash` / `controller-revision-hash` label. */
  hash: string;
  /** Every pod the workload owns. */
  owned: KubeObject[];
  /** The owned pods not being deleted. */
  live: KubeObject[];
  nodes: KubeObject[];
  create(name: string, extra?: PodExtras): Promise<void>;
  remove(pod: KubeObject): Promise<void>;
  /** A short random suffix for a pod name. */
  suffix(): string;
}

/** What a workload's status is computed from. */
export interface StatusInput {
  w: KubeObject;
  spec: Obj;
  hash: string;
  owned: KubeObject[];
  /** The owned pods neither being deleted nor finished. */
  live: KubeObject[];
  /** How many of them are Ready. */
  ready: number;
  nodes: KubeObject[];
  now: number;
  /** A condition, keeping the previous transition (and update) time while it holds. */
  condition(type: string, status: boolean, reason: string, message: string): Obj;
}

export interface WorkloadKind {
  /** The controller that owns the kind's pods, as Events name it. */
  component: string;
  /** Creates and deletes the workload's pods to match its spec. */
  pods(input: PodsInput): Promise<void>;
  status(input: StatusInput): Obj;
}
