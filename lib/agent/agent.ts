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
} from '../core/clusters/health.ts';
import type { ResourceModel } from '../core/clusters/resources.ts';
import { type MemberClient, MemberApiError } from '../members/client.ts';
import type { Collection } from '../core/search/index.ts';
import { ChunkedSync } from '../search/chunked-sync.ts';
import { forEachMemberPage } from '../search/member-pages.ts';
import { collectStatus } from '../members/status.ts';
import type { Logger } from '../observability/logger.ts';
import { signWebhookRequest } from '../registration/webhook-signing.ts';
import { appliedCurrent, type ManifestStatus, workStatusAfter, workStatusChanged } from '../core/status/index.ts';
import { observeWork } from '../core/work/index.ts';
import { applyWork, listManagedObjects, releaseWork } from '../members/work-apply.ts';

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

/** Objects per search-cache report (request bodies are capped at 3 MiB). */
const AGENT_SEARCH_PAGE = 100;

/** Summaries (node and pod lists) are collected at most this often; health at every round. */
const COLLECT_EVERY_MS = 60_000;

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
    await this.#syncSearch();
    this.#loops = [
      this.#every(this.#t.leaseRenewMs, () => this.#heartbeat()),
      this.#every(this.#t.statusUpdateFrequencyMs, async () => {
        await this.#reportStatus();
        await this.#syncWorks();
        await this.#syncSearch();
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

  /**
   * What ResourceRegistries select here goes to the search cache (the control plane cannot list this
   * member itself): each kind is listed in pages of {@link AGENT_SEARCH_PAGE} and cut into chunks; a
   * chunk the control plane recorded unchanged is not posted, any other is, then the kind's summary.
   * A kind the member does not serve is skipped (and retried next round).
   */
  async #syncSearch(): Promise<void> {
    const { collections } = await this.#webhooks.post<{ collections?: (Collection & { chunks?: string[] })[] }>(
      'search',
    );
    for (const kind of collections ?? []) {
      const { chunks: previous, ...collection } = kind;
      const chunked = new ChunkedSync(async (chunk) => {
        const answer = await this.#webhooks.post<{ complete?: boolean }>('cache', {
          apiVersion: collection.apiVersion,
          kind: collection.kind,
          ...(chunk.prefix ? { prefix: chunk.prefix } : {}),
          ...(chunk.after !== undefined ? { after: chunk.after } : {}),
          items: chunk.items,
          last: chunk.last,
        });
        return { complete: answer.complete === true };
      }, previous);
      try {
        const listed = await forEachMemberPage(this.#o.member, collection, AGENT_SEARCH_PAGE, (page) =>
          chunked.add(page),
        );
        await this.#webhooks.post('cache', {
          apiVersion: collection.apiVersion,
          kind: collection.kind,
          summary: { ...listed, chunks: chunked.chunks, comparedAll: previous === undefined },
        });
      } catch (err) {
        if (!(err instanceof MemberApiError)) throw err;
        this.#o.logger.warn('a kind ResourceRegistries select is not listed here', {
          kind: `${collection.apiVersion}/${collection.kind}`,
          reason: err.message,
        });
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
   * One round over this cluster's Works (Karmada's execution and work status controllers, in the
   * agent): a changed or not-yet-applied Work is applied; an applied one is read back, re-applied
   * when it drifted or vanished, and its status reported when it changed; a deleting Work's objects
   * are deleted (or released, with preserveResourcesOnDeletion) before the control plane is told to
   * let it go. Deleting Works go first: a copy evicted while this cluster was away (a partition, not a
   * death) is removed before anything new is applied here, so two copies of a stateful job do not
   * run side by side any longer than they must. A round in which a deletion failed applies nothing
   * (what is applied is still read back and reported); the next round tries the deletion again.
   */
  async #syncWorks(): Promise<void> {
    const { member, logger, config } = this.#o;
    const works = await this.#webhooks.post<{ items: KubeObject[] }>('works');
    // The applied Works' member objects, listed once per kind when first needed this round.
    let lookup: ((manifest: KubeObject) => KubeObject | undefined) | undefined;
    const deletingFirst = [
      ...works.items.filter((w) => w.metadata.deletionTimestamp),
      ...works.items.filter((w) => !w.metadata.deletionTimestamp),
    ];
    let deletionFailed = false;
    for (const work of deletingFirst) {
      const name = work.metadata.name!;
      try {
        if (work.metadata.deletionTimestamp) {
          await releaseWork(member, work);
          await this.#webhooks.post('workstatus', { name, released: true });
          continue;
        }
        if ((work.spec as { suspendDispatching?: boolean } | undefined)?.suspendDispatching) continue;
        let outcome: { failure?: string; manifestStatuses: ManifestStatus[] } | undefined;
        if (appliedCurrent(work)) {
          lookup ??= await listManagedObjects(
            member,
            works.items.filter((w) => appliedCurrent(w)),
          );
          const seen = observeWork(work, lookup);
          if (seen.apply)
            logger.info('member object changed outside Karmada; applying the work again', {
              work: name,
              detail: seen.reason,
            });
          else outcome = { manifestStatuses: seen.manifestStatuses };
        }
        if (!outcome && deletionFailed) {
          logger.info('not applying a work this round: a deleting work’s objects are not deleted yet', { work: name });
          continue;
        }
        outcome ??= await applyWork(member, work, config.cluster);
        const next = workStatusAfter(work, outcome, rfc3339(this.#o.clock.now()));
        if (workStatusChanged(work, next)) await this.#webhooks.post('workstatus', { name, status: next });
      } catch (err) {
        if (work.metadata.deletionTimestamp) deletionFailed = true;
        logger.warn('could not sync a work; retrying next round', { work: name, error: err as Error });
      }
    }
  }
}
