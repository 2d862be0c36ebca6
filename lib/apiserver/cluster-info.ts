/**
 * The public `kube-public/cluster-info` ConfigMap that Pull registration starts from (kubeadm's token
 * discovery): a kubeconfig naming this API (its address and, locally, its CA) and, for every live
 * bootstrap token that may sign, the JWS `jws-kubeconfig-<id>` proving the ConfigMap comes from a
 * server that knows the token. Kubernetes' bootstrapsigner keeps it current; here it is refreshed
 * when a token is written or deleted through the API, and at every start.
 */
import { stringify } from 'yaml';
import type { KubeObject } from '../api/object.ts';
import type { Clock } from '../clock/clock.ts';
import {
  BOOTSTRAP_TOKEN_NAMESPACE,
  BOOTSTRAP_TOKEN_SECRET_TYPE,
  readBootstrapTokenSecret,
} from '../registration/bootstrap-token.ts';
import {
  CLUSTER_INFO_KUBECONFIG_KEY,
  CLUSTER_INFO_NAME,
  CLUSTER_INFO_NAMESPACE,
  clusterInfoConfigMap,
} from '../registration/cluster-info.ts';
import { tryWrite } from '../store/write.ts';
import type { ObjectStore } from '../store/port.ts';

export const CLUSTER_INFO_REF = {
  group: '',
  kind: 'ConfigMap',
  namespace: CLUSTER_INFO_NAMESPACE,
  name: CLUSTER_INFO_NAME,
};

/** The kubeconfig cluster-info publishes: one cluster, no user (kubeadm's shape). */
export function clusterInfoKubeconfig(server: string, caPem?: string): string {
  return stringify(
    {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: '',
          cluster: {
            server,
            ...(caPem ? { 'certificate-authority-data': Buffer.from(caPem, 'utf8').toString('base64') } : {}),
          },
        },
      ],
      contexts: [],
      'current-context': '',
      preferences: {},
      users: [],
    },
    { lineWidth: 0 },
  );
}

/**
 * Rewrites cluster-info with signatures for every unexpired token allowed to sign. With `server`,
 * (re)publishes the kubeconfig too; without, keeps the one stored (token changes), doing nothing
 * when none was published yet.
 */
export async function refreshClusterInfo(
  store: ObjectStore,
  clock: Clock,
  endpoint?: { server: string; caPem?: string },
): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await store.get(CLUSTER_INFO_REF);
    const kubeconfig = endpoint
      ? clusterInfoKubeconfig(endpoint.server, endpoint.caPem)
      : ((current?.data as Record<string, string> | undefined)?.[CLUSTER_INFO_KUBECONFIG_KEY] ?? undefined);
    if (!kubeconfig) return;
    const tokens = await signingTokens(store, clock.now());
    const desired = clusterInfoConfigMap(kubeconfig, tokens);
    if (current && JSON.stringify(current.data) === JSON.stringify(desired.data)) return;
    // A concurrent refresh won the race: read its result and sign again.
    const written = await tryWrite(() =>
      current ? store.update({ ...current, data: desired.data }) : store.create(desired),
    );
    if (written.ok) return;
  }
}

async function signingTokens(store: ObjectStore, nowMs: number): Promise<{ id: string; secret: string }[]> {
  const out: { id: string; secret: string }[] = [];
  let token: string | undefined;
  do {
    const page = await store.list({
      group: '',
      kind: 'Secret',
      namespace: BOOTSTRAP_TOKEN_NAMESPACE,
      limit: 500,
      ...(token ? { continue: token } : {}),
    });
    for (const secret of page.items) {
      if ((secret as KubeObject & { type?: string }).type !== BOOTSTRAP_TOKEN_SECRET_TYPE) continue;
      const info = readBootstrapTokenSecret(secret, nowMs);
      if (info && !info.expired && info.usages.includes('signing')) out.push({ id: info.id, secret: info.secret });
    }
    token = page.continue;
  } while (token);
  return out;
}

/** True for writes that change which tokens may sign. */
export function isBootstrapTokenSecret(obj: Pick<KubeObject, 'kind' | 'metadata'> & { type?: unknown }): boolean {
  return (
    obj.kind === 'Secret' &&
    obj.metadata.namespace === BOOTSTRAP_TOKEN_NAMESPACE &&
    obj.type === BOOTSTRAP_TOKEN_SECRET_TYPE
  );
}
