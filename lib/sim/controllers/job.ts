/**
 * Jobs: up to `parallelism` running pods until `completions` have succeeded (the kubelet finishes
 * them after `jobDurationMs`), then Complete. A suspended or complete Job gets no new pods.
 */
import { rfc3339 } from '../../api/time.ts';
import type { Obj } from './context.ts';
import { active, conditionTrue, phaseOf } from './context.ts';
import type { WorkloadKind } from './workload-kind.ts';

export const jobs: WorkloadKind = {
  component: 'job-controller',

  async pods({ w, spec, owned, create, suffix }) {
    if (spec.suspend === true || conditionTrue(w, 'Complete')) return;
    const completions = Number(spec.completions ?? 1);
    const parallelism = Number(spec.parallelism ?? 1);
    const succeeded = owned.filter((p) => phaseOf(p) === 'Succeeded').length;
    const running = owned.filter(active).length;
    const want = Math.min(parallelism, completions - succeeded) - running;
    for (let i = 0; i < want; i++)
      await create(`${w.metadata.name}-${suffix()}`, {
        labels: { 'job-name': w.metadata.name!, 'batch.kubernetes.io/job-name': w.metadata.name! },
      });
  },

  status({ w, spec, owned, live, ready, now, condition }) {
    const completions = Number(spec.completions ?? 1);
    const succeeded = owned.filter((p) => phaseOf(p) === 'Succeeded').length;
    const starts = owned.map((p) => String(p.metadata.creationTimestamp)).sort();
    const done = succeeded >= completions;
    const previousStatus = (w.status ?? {}) as Obj;
    return {
      ...(starts.length ? { startTime: previousStatus.startTime ?? starts[0] } : {}),
      ...(live.length ? { active: live.length } : {}),
      ...(succeeded ? { succeeded } : {}),
      ready,
      terminating: 0,
      uncountedTerminatedPods: {},
      ...(done
        ? {
            completionTime: previousStatus.completionTime ?? rfc3339(now),
            conditions: [
              condition('SuccessCriteriaMet', true, 'CompletionsReached', 'Reached expected number of succeeded pods'),
              condition('Complete', true, 'CompletionsReached', 'Reached expected number of succeeded pods'),
            ],
          }
        : {}),
    };
  },
};
