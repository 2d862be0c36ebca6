/**
 * The resource detector (Karmada `pkg/detector`): turns a resource template matched by a
 * PropagationPolicy or ClusterPropagationPolicy into a ResourceBinding (namespaced templates) or
 * ClusterResourceBinding (cluster-scoped ones) for the scheduler.
 *
 * - Template key: choose the policy (sticky claim, priorities, PP before CPP, preemption — the pure
 *   `core/policy`), claim the template (Karmada's labels and annotations), interpret replicas or
 *   components (`core/interpreter`), create or update the binding (`<name>-<kind>` lower-cased, owned by
 *   the template), and hand it to the scheduler. A template no policy selects is left alone.
 * - Policy key: fan out to the templates the policy claims or selects on the **standard** lane; a
 *   deleted policy unclaims its templates and bindings (which stay, as do the member objects) and then
 *   drops its finalizer; a template a changed policy no longer selects loses the claim and is matched
 *   again.
 * Events `ApplyPolicySucceed` / `ApplyPolicyFailed` go on the template, as in Karmada.
 */
import { randomUUID } from 'node:crypto';
import {
  CLUSTER_PROPAGATION_POLICY,
  CLUSTER_RESOURCE_BINDING,
  POLICY_GROUP,
  PROPAGATION_POLICY,
  RESOURCE_BINDING,
  templateRefOf,
} from '../api/karmada-names.ts';
import type { GroupKind, KubeObject, ObjectRef } from '../api/object.ts';
import { formatKey, parseApiVersion, parseKey, refOf } from '../api/object.ts';
import { interpretBindingWorkload } from '../core/interpreter/index.ts';
import { bindingRefOf } from '../core/work/names.ts';
import {
  applyClaim,
  choosePolicy,
  claimedBy,
  describePropagationPolicy,
  inSkippedNamespace,
  isDeleting,
  planBinding,
  policyImplicitPriority,
  schedulePriorityNeed,
  schedulePriorityOf,
  type PolicyClaim,
  type PolicyKind,
  preemptingPolicy,
  removeClaim,
} from '../core/policy/index.ts';
import type { PropagationPolicy, ResourceBinding } from '../core/model/types.ts';
import { type EventRecorder, NO_EVENTS } from '../events/recorder.ts';
import { CPP_FINALIZER, PP_FINALIZER } from '../api/well-known.ts';
import type { Lane, WorkQueue } from '../queue/port.ts';
import type {
  BatchScope,
  Controller,
  ReconcileContext,
  ReconcileRequest,
  ReconcileResult,
} from '../reconcile/controller.ts';
import { listAll } from '../store/list-all.ts';
import { removeFinalizer } from '../store/finalizers.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite, updateLatest } from '../store/write.ts';
import {
  BINDER_CONTROLLER_NAME,
  DETECTOR_CONTROLLER_NAME,
  isResourceTemplate,
  SCHEDULER_CONTROLLER_NAME,
} from './specs.ts';

const PP: GroupKind = PROPAGATION_POLICY;
const CPP: GroupKind = CLUSTER_PROPAGATION_POLICY;
const RB = RESOURCE_BINDING;
/** Kubernetes' PriorityClass (cluster-scoped), which `spec.schedulePriority` names. */
const PRIORITY_CLASS: GroupKind = { group: 'scheduling.k8s.io', kind: 'PriorityClass' };
const CRB = CLUSTER_RESOURCE_BINDING;

export interface DetectorOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
  events?: EventRecorder;
  /** Feature gate `MultiplePodTemplatesScheduling`: bindings of multi-template kinds carry `components` (default on here). */
  multiplePodTemplatesScheduling?: boolean;
  /** Feature gate `PropagationPolicyPreemption` (Karmada: default off; here on, as `preemption` is opt-in per policy). */
  policyPreemption?: boolean;
  /** Feature gate `PriorityBasedScheduling` (Karmada ≥ 1.19: Beta, on): bindings get the PriorityClass's value. */
  priorityBasedScheduling?: boolean;
  /** Feature gate `WorkloadAffinity` (Karmada ≥ 1.17: Alpha, off; on here): bindings get `workloadAffinityGroups`. */
  workloadAffinity?: boolean;
  /** Permanent ids for new bindings (default: random UUIDs; tests pass a deterministic one). */
  newUid?: () => string;
}

/** Policies read once per batch. */
interface DetectorBatch extends BatchScope {
  propagationPolicies(namespace: string): Promise<PropagationPolicy[]>;
  clusterPropagationPolicies(): Promise<PropagationPolicy[]>;
}

export function createDetectorController(options: DetectorOptions): Controller {
  const { store } = options;
  const events = options.events ?? NO_EVENTS;
  const newUid = options.newUid ?? randomUUID;

  function openBatch(): DetectorBatch {
    const pps = new Map<string, Promise<PropagationPolicy[]>>();
    let cpps: Promise<PropagationPolicy[]> | undefined;
    return {
      propagationPolicies(namespace) {
        let p = pps.get(namespace);
        if (!p) pps.set(namespace, (p = listAll(store, { ...PP, namespace }) as Promise<PropagationPolicy[]>));
        return p;
      },
      clusterPropagationPolicies() {
        return (cpps ??= listAll(store, CPP) as Promise<PropagationPolicy[]>);
      },
    };
  }

  return {
    name: DETECTOR_CONTROLLER_NAME,
    openBatch: () => Promise.resolve(openBatch()),
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      const ref = parseKey(request.key);
      const batch = (context.batch as DetectorBatch | undefined) ?? openBatch();
      if (ref.group === POLICY_GROUP && (ref.kind === PP.kind || ref.kind === CPP.kind)) {
        return reconcilePolicy(ref, context);
      }
      if (!isResourceTemplate(ref)) return undefined;
      return reconcileTemplate(ref, batch, request.lane, context);
    },
  };

  // -------------------------------------------------------------------------------------------------
  // Templates

  async function reconcileTemplate(
    ref: ObjectRef,
    batch: DetectorBatch,
    lane: Lane,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    let template = await store.get(ref);
    if (!template || isDeleting(template)) return undefined;
    if (inSkippedNamespace(template)) return undefined;
    const pps = template.metadata.namespace ? await batch.propagationPolicies(template.metadata.namespace) : [];
    const cpps = await batch.clusterPropagationPolicies();

    let choice = choosePolicy({ template, propagationPolicies: pps, clusterPropagationPolicies: cpps });
    if (choice.outcome === 'claimed-gone') {
      // Karmada cleans the claim from the binding as well as the template (HandlePropagationPolicyDeletion);
      // a stale claim left on the binding would outrank a later CPP claim in `claimedBy`.
      const binding = (await store.get(bindingRefOf(template))) as ResourceBinding | undefined;
      if (binding) await unclaimBinding(binding, choice.claim);
      template = await unclaim(template, choice.claim, context);
      if (!template) return undefined;
      choice = choosePolicy({ template, propagationPolicies: pps, clusterPropagationPolicies: cpps });
    }
    if (choice.outcome === 'claimed-deleting' || choice.outcome === 'claimed-gone') {
      // The policy's own reconcile unclaims its templates; look again then.
      return { requeueAfterMs: 5_000 };
    }
    if (choice.outcome === 'none' || choice.outcome === 'claimed-mismatch') {
      await refreshAttachedBinding(template, lane);
      return undefined;
    }
    let policy = choice.policy;
    if (choice.outcome === 'claimed' && options.policyPreemption !== false) {
      policy = preemptingPolicy(template, policy, [...pps, ...cpps]) ?? policy;
    }
    return applyPolicy(template, policy, lane, context);
  }

  /**
   * A template no policy claims may still be a dependency another workload brought along (propagateDeps):
   * its attached binding's Works are rendered from it, so an edit goes to the binder (Karmada's
   * dependencies distributor re-syncs the attached binding on every update of the dependency).
   */
  async function refreshAttachedBinding(template: KubeObject, lane: Lane): Promise<void> {
    const ref = bindingRefOf(template);
    const binding = (await store.get(ref)) as ResourceBinding | undefined;
    if (!binding?.spec.requiredBy?.length || isDeleting(binding)) return;
    await options.workQueue.enqueue([
      { controller: BINDER_CONTROLLER_NAME, lane, key: formatKey(ref), reason: 'dependency-changed' },
    ]);
  }

  async function applyPolicy(
    template: KubeObject,
    policy: PropagationPolicy,
    lane: Lane,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    const policyName = describePropagationPolicy(policy);
    // dependentOverrides must all exist (Karmada retries until they do).
    for (const name of policy.spec.dependentOverrides ?? []) {
      const op = await store.get({
        group: POLICY_GROUP,
        kind: 'OverridePolicy',
        namespace: policy.metadata.namespace!,
        name,
      });
      if (!op) {
        const message = `Apply ${policyName} failed: dependent OverridePolicy ${name} does not exist`;
        await events.record(template, 'Warning', 'ApplyPolicyFailed', message);
        return { requeueAfterMs: 10_000 };
      }
    }

    // 1. Claim the template.
    const claimed = applyClaim(template, policy);
    let current = template;
    if (claimed !== template) {
      const written = await tryWrite(() => store.update(claimed));
      if (!written.ok) return written.reason === 'gone' ? undefined : { requeueAfterMs: 0 };
      current = written.object;
    }

    // 2. Create or update the binding.
    let workload;
    try {
      workload = interpretBindingWorkload(current, {
        multiplePodTemplatesScheduling: options.multiplePodTemplatesScheduling ?? true,
      });
    } catch (err) {
      await events.record(
        current,
        'Warning',
        'ApplyPolicyFailed',
        `Apply ${policyName} failed: ${(err as Error).message}`,
      );
      return undefined;
    }
    // The PriorityClass the policy names must exist: without it no binding is built (Karmada retries).
    const need = schedulePriorityNeed(policy, options.priorityBasedScheduling ?? true);
    const priority = schedulePriorityOf(
      need,
      need.kind === 'kube-priority-class' ? await store.get({ ...PRIORITY_CLASS, name: need.name }) : undefined,
    );
    if (!priority.ok) {
      await events.record(current, 'Warning', 'ApplyPolicyFailed', `Apply ${policyName} failed: ${priority.message}`);
      return { requeueAfterMs: 30_000 };
    }
    const bindingRef = bindingRefOf(current);
    const existing = (await store.get(bindingRef)) as ResourceBinding | undefined;
    if (existing && isDeleting(existing)) return { requeueAfterMs: 2_000 };
    const plan = planBinding({
      ref: bindingRef,
      template: current,
      policy,
      workload,
      existing,
      newUid,
      ...(priority.priority !== undefined ? { schedulePriority: priority.priority } : {}),
      workloadAffinity: options.workloadAffinity ?? true,
    });
    try {
      if (plan.write) {
        const written = await tryWrite(() =>
          plan.write === 'create' ? store.create(plan.binding) : store.update(plan.binding),
        );
        // Lost a race (or the binding went meanwhile): decide again on what is there now.
        if (!written.ok) return { requeueAfterMs: 0 };
      }
    } catch (err) {
      const message = `Apply ${policyName} failed: ${(err as Error).message}`;
      await events.record(current, 'Warning', 'ApplyPolicyFailed', message);
      throw err;
    }
    if (plan.write || claimed !== template) {
      context.logger.info(existing ? 'binding updated' : 'binding created', {
        binding: formatKey(bindingRef),
        policy: policyName,
      });
      await events.record(current, 'Normal', 'ApplyPolicySucceed', `Apply ${policyName} succeed`);
    }
    if (plan.schedule) {
      // The scheduler hands the binding on to the binder (placed again or not): one straight pipeline.
      await options.workQueue.enqueue([
        { controller: SCHEDULER_CONTROLLER_NAME, lane, key: formatKey(bindingRef), reason: 'binding-changed' },
      ]);
    }
    return undefined;
  }

  // -------------------------------------------------------------------------------------------------
  // Policies

  async function reconcilePolicy(ref: ObjectRef, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const kind = ref.kind as PolicyKind;
    const policy = (await store.get(ref)) as PropagationPolicy | undefined;
    const bindings = await claimedBindings(kind, ref);
    const enqueue = new Set<string>();

    if (!policy || isDeleting(policy)) {
      // Unclaim: templates and bindings stay (and so do member objects); templates are matched again.
      for (const binding of bindings) {
        const claim = claimedBy(binding)!;
        await unclaimBinding(binding, claim);
        const template = await store.get(templateRefOf(binding.spec.resource));
        if (template) {
          await unclaim(template, claim, context);
          enqueue.add(formatKey(templateRefOf(binding.spec.resource)));
        }
      }
      await enqueueTemplates(enqueue, 'policy-deleted');
      if (policy) {
        const finalizer = kind === 'PropagationPolicy' ? PP_FINALIZER : CPP_FINALIZER;
        const removed = await tryWrite(() => removeFinalizer(store, policy, finalizer));
        if (!removed.ok && removed.reason === 'conflict') return { requeueAfterMs: 0 };
      }
      context.logger.info('policy removed; templates unclaimed', { templates: enqueue.size });
      return undefined;
    }

    // Templates it claims: re-apply, or unclaim those it no longer selects.
    for (const binding of bindings) {
      const templateRef = templateRefOf(binding.spec.resource);
      const template = await store.get(templateRef);
      if (template && policyImplicitPriority(template, policy) === 0) {
        const claim = claimedBy(binding)!;
        await unclaimBinding(binding, claim);
        await unclaim(template, claim, context);
      }
      enqueue.add(formatKey(templateRef));
    }
    // Templates it selects (new matches, preemption).
    for (const template of await selectedTemplates(policy)) {
      enqueue.add(formatKey(refOf(template)));
    }
    await enqueueTemplates(enqueue, 'policy-changed');
    context.logger.info('policy changed; templates re-examined', { templates: enqueue.size });
    return undefined;
  }

  async function enqueueTemplates(keys: Set<string>, reason: string): Promise<void> {
    if (keys.size === 0) return;
    await options.workQueue.enqueue(
      [...keys].map((key) => ({ controller: DETECTOR_CONTROLLER_NAME, lane: 'standard' as const, key, reason })),
    );
  }

  /** Bindings whose claim names this policy. */
  async function claimedBindings(kind: PolicyKind, ref: ObjectRef): Promise<ResourceBinding[]> {
    const lists =
      kind === 'PropagationPolicy'
        ? [listAll(store, { ...RB, namespace: ref.namespace! })]
        : [listAll(store, RB), listAll(store, CRB)];
    const all = (await Promise.all(lists)).flat() as ResourceBinding[];
    return all.filter((b) => {
      const claim = claimedBy(b);
      return (
        claim?.kind === kind &&
        claim.name === ref.name &&
        (kind === 'ClusterPropagationPolicy' || claim.namespace === ref.namespace)
      );
    });
  }

  /** Templates the policy's selectors match (named ones read directly, others listed by kind). */
  async function selectedTemplates(policy: PropagationPolicy): Promise<KubeObject[]> {
    const namespace = policy.kind === 'PropagationPolicy' ? policy.metadata.namespace : undefined;
    const out = new Map<string, KubeObject>();
    for (const selector of policy.spec.resourceSelectors ?? []) {
      const { group } = parseApiVersion(selector.apiVersion);
      const gk = { group, kind: selector.kind };
      if (!isResourceTemplate(gk)) continue;
      const ns = namespace ?? selector.namespace;
      let candidates: KubeObject[];
      if (selector.name && ns) {
        const direct = await store.get({ ...gk, namespace: ns, name: selector.name });
        candidates = direct ? [direct] : [];
      } else if (selector.name) {
        // A ClusterPropagationPolicy naming a namespaced kind without a namespace selects that name in
        // every namespace (Karmada matches the name only); cluster-scoped kinds list the same way.
        const name = selector.name;
        candidates = (await listAll(store, gk)).filter((t) => t.metadata.name === name);
      } else {
        candidates = await listAll(store, { ...gk, ...(ns ? { namespace: ns } : {}) });
      }
      for (const t of candidates) {
        if (isDeleting(t) || policyImplicitPriority(t, policy) === 0) continue;
        if (inSkippedNamespace(t)) continue;
        out.set(formatKey(refOf(t)), t);
      }
    }
    return [...out.values()];
  }

  /** Removes a claim from a template (a no-op when it carries another). Returns the template as stored. */
  async function unclaim(
    template: KubeObject,
    claim: PolicyClaim,
    context: ReconcileContext,
  ): Promise<KubeObject | undefined> {
    // A template whose status was written meanwhile (the binder aggregates it) is read again and
    // unclaimed in this pass, as its binding is, rather than failing the whole reconcile on a conflict.
    const result = await updateLatest(store, template, (current) => {
      const next = removeClaim(current, claim.kind, claim.permanentId);
      return next === current ? undefined : next;
    });
    if (result.status === 'gone') return undefined;
    if (result.status === 'conflict') throw new Error(`could not unclaim template ${formatKey(refOf(template))}`);
    if (result.status === 'written') context.logger.info('template unclaimed', { policy: claim.name });
    return result.object;
  }

  async function unclaimBinding(binding: ResourceBinding, claim: PolicyClaim): Promise<void> {
    // A binding whose status was written meanwhile (a Work reported) is read again and unclaimed: the
    // template loses its claim in the same pass, so no later reconcile would come back for it.
    const result = await updateLatest(store, binding, (current) => {
      const next = removeClaim(current as ResourceBinding, claim.kind, claim.permanentId);
      return next === current ? undefined : next;
    });
    if (result.status === 'conflict') throw new Error(`could not unclaim binding ${formatKey(refOf(binding))}`);
  }
}
