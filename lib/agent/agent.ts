/**
 * The Pull-mode agent (`skctl agent`, Karmada's karmada-agent): runs beside a member cluster, renews
 * the cluster's lease, reports its status, pulls the Works for it, applies them with server-side
 * apply and reports their status — all through the control plane's signed webhooks, so the member
 * needs no inbound connectivity and the control plane no member credentials.
 *
 * Health follows Karmada's agent: probe the member's `/readyz`, smooth with the success/failure
 * thresholds (kept in memory, as the agent does), and collect summaries while Ready.
 */
import { Agent, request } from 'node:https';
import type { KubeObject } from '../api/object.ts';
import type { Clock } from '../clock/clock.ts';
import {
  type Condition,
  findCondition,
  type HealthSettings,
  observedReady,
  READY_CONDITION,
  rfc3339,
  setCondition,
  type ThresholdState,
  thresholdAdjustedReady,
} from '../clusters/health.ts';
import type { ResourceModel } from '../clusters/resources.ts';
import type { MemberClient } from '../members/client.ts';
import { collectStatus } from '../members/status.ts';
import type { Logger } from '../observability/logger.ts';
import { signWebhookRequest } from '../registration/webhook-signing.ts';

export interface AgentConfig {
  /** The control plane's API address (`https://…`). */
  server: string;
  /** Its CA (local mode); absent when its certificate is publicly trusted. */
  caPem?: string;
  cluster: string;
  /** The cluster's webhook credential issued at registration. */
  credential: string;
}

export interface AgentTimings extends HealthSettings {
  /** `--cluster-status-update-frequency` (10 s). */
  statusUpdateFrequencyMs: number;
  /** Lease renewal: `--cluster-lease-duration` × `--cluster-lease-renew-interval-fraction` (10 s). */
  leaseRenewMs: number;
}

export const DEFAULT_AGENT_TIMINGS: AgentTimings = {
  statusUpdateFrequencyMs: 10_000,
  leaseRenewMs: 10_000,
  successThresholdMs: 30_000,
  failureThresholdMs: 30_000,
  monitorGracePeriodMs: 40_000,
  startupGracePeriodMs: 60_000,
};

/** Summaries (node and pod lists) are collected at most this often; health at every round. */
const COLLECT_EVERY_MS = 60_000;

/** The field manager the agent applies Works' manifests as (Karmada's execution controller's). */
export const WORK_FIELD_MANAGER = 'execution-controller';

/** The control plane refused a webhook call. */
export class WebhookCallError extends Error {
  override readonly name = 'WebhookCallError';
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Signed calls to `/webhooks/v1/clusters/<cluster>/<action>`. */
export class WebhookClient {
  readonly #config: AgentConfig;
  readonly #clock: Clock;
  readonly #agent: Agent;

  constructor(config: AgentConfig, clock: Clock) {
    this.#config = config;
    this.#clock = clock;
    this.#agent = new Agent({ keepAlive: true, ...(config.caPem ? { ca: config.caPem } : {}) });
  }

  close(): void {
    this.#agent.destroy();
  }

  async post<T = unknown>(action: string, body: unknown = {}): Promise<T> {
    const path = `/webhooks/v1/clusters/${encodeURIComponent(this.#config.cluster)}/${action}`;
    const payload = Buffer.from(JSON.stringify(body), 'utf8');
    const headers = signWebhookRequest({
      method: 'POST',
      path,
      body: payload,
      cluster: this.#config.cluster,
      secret: this.#config.credential,
      nowMs: this.#clock.now(),
    });
    const base = new URL(this.#config.server);
    const url = new URL(`${base.pathname.replace(/\/$/, '')}${path}`, base);
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent: this.#agent,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(payload.length),
            'user-agent': 'skctl-agent',
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.setTimeout(15_000, () => req.destroy(new Error('the control plane did not answer within 15 s')));
      req.on('error', reject);
      req.end(payload);
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new WebhookCallError(status, `the control plane answered ${status} with a body that is not JSON`);
    }
    if (status >= 400) {
      throw new WebhookCallError(status, (parsed as { message?: string }).message ?? `HTTP ${status}`);
    }
    return parsed as T;
  }
}

export interface AgentOptions {
  config: AgentConfig;
  member: MemberClient;
  clock: Clock;
  logger: Logger;
  timings?: Partial<AgentTimings>;
}

interface AppliedManifest {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

/** The agent's loop; `start` resolves once the first round is done, `stop` ends it. */
export class PullAgent {
  readonly #o: AgentOptions;
  readonly #t: AgentTimings;
  readonly #webhooks: WebhookClient;
  readonly #abort = new AbortController();
  #threshold: ThresholdState | undefined;
  #conditions: Condition[] = [];
  #models: ResourceModel[] = [];
  #lastCollectedMs: number | undefined;
  #lastReport: string | undefined;
  /** The version of each Work last applied, and the status last reported for it. */
  readonly #synced = new Map<string, { version: string; status: string }>();
  /** What each Work applied, to delete it when the Work goes. */
  readonly #applied = new Map<string, AppliedManifest[]>();
  #loops: Promise<void>[] = [];

  constructor(options: AgentOptions) {
    this.#o = options;
    this.#t = { ...DEFAULT_AGENT_TIMINGS, ...options.timings };
    this.#webhooks = new WebhookClient(options.config, options.clock);
  }

  async start(): Promise<void> {
    await this.#heartbeat();
    await this.#reportStatus();
    await this.#syncWorks();
    this.#loops = [
      this.#every(this.#t.leaseRenewMs, () => this.#heartbeat()),
      this.#every(this.#t.statusUpdateFrequencyMs, async () => {
        await this.#reportStatus();
        await this.#syncWorks();
      }),
    ];
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    await Promise.allSettled(this.#loops);
    this.#webhooks.close();
  }

  async #every(ms: number, fn: () => Promise<void>): Promise<void> {
    const { clock, logger } = this.#o;
    while (!this.#abort.signal.aborted) {
      try {
        await clock.sleep(ms, this.#abort.signal);
      } catch {
        return;
      }
      try {
        await fn();
      } catch (err) {
        logger.warn('agent round failed; retrying at the next one', { error: err as Error });
      }
    }
  }

  async #heartbeat(): Promise<void> {
    const res = await this.#webhooks.post<{ resourceModels?: ResourceModel[]; conditions?: Condition[] }>('heartbeat');
    this.#models = res.resourceModels ?? [];
    // The Cluster's conditions as stored (the control plane may have set Unknown meanwhile): the
    // next report updates these, as Karmada's agent updates the Cluster's own conditions.
    if (Array.isArray(res.conditions)) this.#conditions = res.conditions;
  }

  async #reportStatus(): Promise<void> {
    const { member, clock, logger } = this.#o;
    const now = clock.now();
    const nowText = rfc3339(now);
    const probe = await member.probe();
    const observed = observedReady(probe);
    const { ready, state } = thresholdAdjustedReady(
      findCondition(this.#conditions, READY_CONDITION),
      observed,
      this.#threshold,
      now,
      this.#t,
    );
    this.#threshold = state;
    this.#conditions = setCondition(this.#conditions, { type: READY_CONDITION, ...ready }, nowText);
    const report: Record<string, unknown> = { conditions: this.#conditions };
    const collectDue = this.#lastCollectedMs === undefined || now - this.#lastCollectedMs >= COLLECT_EVERY_MS;
    if (ready.status === 'True' && probe.healthy && collectDue) {
      try {
        const c = await collectStatus(member, this.#models);
        this.#conditions = setCondition(this.#conditions, c.apiEnablementsCondition, nowText);
        this.#lastCollectedMs = now;
        Object.assign(report, {
          conditions: this.#conditions,
          kubernetesVersion: c.kubernetesVersion,
          apiEnablements: c.apiEnablements,
          nodeSummary: c.nodeSummary,
          resourceSummary: c.resourceSummary,
        });
      } catch (err) {
        logger.warn('could not collect the member status', { error: (err as Error).message });
      }
    }
    // The lease says the agent is alive; a status report is only sent when it says something new.
    const text = JSON.stringify(report);
    if (text === this.#lastReport) return;
    await this.#webhooks.post('status', report);
    this.#lastReport = text;
  }

  /**
   * Applies the manifests of Works that changed since the last round (server-side apply), reports
   * their status when it changed, and deletes what a removed Work had applied.
   */
  async #syncWorks(): Promise<void> {
    const { member, logger } = this.#o;
    const works = await this.#webhooks.post<{ items: KubeObject[] }>('works');
    const seen = new Set<string>();
    for (const work of works.items) {
      const name = work.metadata.name!;
      seen.add(name);
      const version = `${work.metadata.uid}@${work.metadata.generation ?? work.metadata.resourceVersion}`;
      if (this.#synced.get(name)?.version === version) continue;
      const manifests = ((work.spec as { workload?: { manifests?: unknown[] } } | undefined)?.workload?.manifests ??
        []) as unknown[];
      const manifestStatuses: Record<string, unknown>[] = [];
      const applied = new Map((this.#applied.get(name) ?? []).map((m) => [appliedKey(m), m]));
      let failure: string | undefined;
      for (const [ordinal, raw] of manifests.entries()) {
        const manifest = raw as KubeObject;
        const apiVersion = typeof manifest?.apiVersion === 'string' ? manifest.apiVersion : '';
        const slash = apiVersion.indexOf('/');
        const identifier = {
          ordinal,
          group: slash < 0 ? '' : apiVersion.slice(0, slash),
          version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1),
          kind: typeof manifest?.kind === 'string' ? manifest.kind : '',
          namespace: manifest?.metadata?.namespace ?? '',
          name: manifest?.metadata?.name ?? '',
        };
        if (!apiVersion || !identifier.kind || !identifier.name) {
          failure = `manifest ${ordinal}: apiVersion, kind and metadata.name are required`;
          continue;
        }
        try {
          const live = await member.apply(manifest, WORK_FIELD_MANAGER);
          const ref: AppliedManifest = {
            apiVersion,
            kind: identifier.kind,
            ...(identifier.namespace ? { namespace: identifier.namespace } : {}),
            name: identifier.name,
          };
          applied.set(appliedKey(ref), ref);
          manifestStatuses.push({ identifier, status: live.status ?? {}, health: 'Unknown' });
        } catch (err) {
          failure = `${identifier.kind} ${identifier.namespace ? `${identifier.namespace}/` : ''}${identifier.name}: ${(err as Error).message}`;
        }
      }
      this.#applied.set(name, [...applied.values()]);
      const now = rfc3339(this.#o.clock.now());
      const previous = (work.status as { conditions?: Condition[] } | undefined)?.conditions ?? [];
      const conditions = setCondition(
        previous,
        failure
          ? {
              type: 'Applied',
              status: 'False',
              reason: 'AppliedFailed',
              message: `Failed to apply all manifests: ${failure}`,
            }
          : {
              type: 'Applied',
              status: 'True',
              reason: 'AppliedSuccessful',
              message: 'Manifest has been successfully applied',
            },
        now,
      );
      const status = { conditions, manifestStatuses };
      const text = JSON.stringify(status);
      if (this.#synced.get(name)?.status !== text) await this.#webhooks.post('workstatus', { name, status });
      // A failed apply is tried again next round; a successful one only when the Work changes.
      if (failure) this.#synced.delete(name);
      else this.#synced.set(name, { version, status: text });
    }
    for (const [name, manifests] of this.#applied) {
      if (seen.has(name)) continue;
      for (const m of manifests) {
        try {
          await member.deleteObject(m.apiVersion, m.kind, m.namespace, m.name);
        } catch (err) {
          logger.warn('could not delete what a removed Work applied', { work: name, error: (err as Error).message });
        }
      }
      this.#applied.delete(name);
      this.#synced.delete(name);
    }
  }
}

function appliedKey(m: AppliedManifest): string {
  return `${m.apiVersion}/${m.kind}/${m.namespace ?? ''}/${m.name}`;
}
