/**
 * Push join, as `karmadactl join` does it, through the control plane's API: the member's
 * credentials as a Secret in `karmada-cluster` (sealed by the API on write), then the Cluster with
 * `syncMode: Push`, its API endpoint and `secretRef`. The member is contacted first — a cluster
 * that cannot be reached with these credentials is not joined — and its `kube-system` namespace uid
 * becomes the Cluster's `spec.id`, as Karmada records it. Used by `skctl join` and by `skctl up` for
 * its simulated members.
 */
import type { KubeObject } from '../api/object.ts';
import { CLUSTER_GROUP } from '../api/karmada-names.ts';
import { CLUSTER_NAME_LABEL } from '../api/well-known.ts';
import { MemberApiError, MemberClient, type MemberConnection, MemberUnreachableError } from './client.ts';
import { CREDENTIALS_NAMESPACE } from './credentials.ts';

/** The control plane's API, as the join needs it (skctl's KubeClient). */
export interface ControlPlaneClient {
  send(method: string, path: string, body?: unknown, options?: { contentType?: string }): Promise<unknown>;
}

export interface JoinRequest {
  name: string;
  member: MemberConnection;
  provider?: string;
  region?: string;
  zones?: string[];
  /** Re-join an existing Cluster (update its endpoint and credentials) instead of refusing. */
  update?: boolean;
  /** How to reach the member (default: HTTPS); the simulation's members are in-process. */
  connect?: (conn: MemberConnection) => MemberClient;
}

export class JoinError extends Error {
  override readonly name = 'JoinError';
}

const CLUSTER_PATH = `/apis/${CLUSTER_GROUP}/v1alpha1/clusters`;
const FIELD_MANAGER = 'skctl-join';

/** Joins a Push cluster; returns the Cluster as stored. */
export async function joinPushCluster(api: ControlPlaneClient, request: JoinRequest): Promise<KubeObject> {
  const { name, member } = request;
  if (!/^[a-z0-9]([-a-z0-9]{0,46}[a-z0-9])?$/.test(name)) {
    throw new JoinError(
      `cluster name ${JSON.stringify(name)} is invalid: use at most 48 lowercase letters, digits and '-', starting and ending with a letter or digit`,
    );
  }
  if (!member.token && !(member.certPem && member.keyPem)) {
    throw new JoinError(
      'the member kubeconfig has no usable credential: use a bearer token or a client certificate and key',
    );
  }
  const id = await memberIdentity(member, request.connect);
  if (!request.update) {
    const existing = await api.send('GET', `${CLUSTER_PATH}/${name}`).catch((err: unknown) => {
      if ((err as { code?: number }).code === 404) return undefined;
      throw err;
    });
    if (existing) throw new JoinError(`cluster ${name} is already joined: run "skctl unjoin ${name}" first`);
  }
  const data: Record<string, string> = {};
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  if (member.token) data.token = b64(member.token);
  if (member.caPem) data.caBundle = b64(member.caPem);
  if (member.certPem && member.keyPem) {
    data['tls.crt'] = b64(member.certPem);
    data['tls.key'] = b64(member.keyPem);
  }
  const apply = (path: string, body: KubeObject) =>
    api.send('PATCH', `${path}?fieldManager=${FIELD_MANAGER}&force=true`, body, {
      contentType: 'application/apply-patch+yaml',
    });
  await apply(`/api/v1/namespaces/${CREDENTIALS_NAMESPACE}/secrets/${name}`, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: CREDENTIALS_NAMESPACE, labels: { [CLUSTER_NAME_LABEL]: name } },
    type: 'Opaque',
    data,
  });
  const spec: Record<string, unknown> = {
    id,
    syncMode: 'Push',
    apiEndpoint: member.server,
    secretRef: { namespace: CREDENTIALS_NAMESPACE, name },
  };
  if (member.insecureSkipTLSVerify) spec.insecureSkipTLSVerification = true;
  if (request.provider) spec.provider = request.provider;
  if (request.region) spec.region = request.region;
  if (request.zones?.length) spec.zones = request.zones;
  return (await apply(`${CLUSTER_PATH}/${name}`, {
    apiVersion: `${CLUSTER_GROUP}/v1alpha1`,
    kind: 'Cluster',
    metadata: { name },
    spec,
  })) as KubeObject;
}

/** Removes a joined cluster: the Cluster (its controller empties its namespace) and its credentials. */
export async function unjoinCluster(api: ControlPlaneClient, name: string): Promise<void> {
  const ignoreMissing = (err: unknown) => {
    if ((err as { code?: number }).code !== 404) throw err;
  };
  await api.send('DELETE', `${CLUSTER_PATH}/${name}`).catch(ignoreMissing);
  await api.send('DELETE', `/api/v1/namespaces/${CREDENTIALS_NAMESPACE}/secrets/${name}`).catch(ignoreMissing);
}

/** Reaches the member with its credentials; returns its `kube-system` uid (Karmada's cluster id). */
async function memberIdentity(
  member: MemberConnection,
  connect: (conn: MemberConnection) => MemberClient = (conn) => new MemberClient(conn),
): Promise<string> {
  const client = connect({ timeoutMs: 10_000, ...member });
  try {
    const ns = await client.getJson<KubeObject>('/api/v1/namespaces/kube-system');
    return ns.metadata.uid ?? '';
  } catch (err) {
    if (err instanceof MemberUnreachableError) throw new JoinError(`cannot reach the member cluster: ${err.message}`);
    if (err instanceof MemberApiError) {
      throw new JoinError(
        `the member cluster refused the credentials in the kubeconfig (${err.status} ${err.reason}): ${err.message}`,
      );
    }
    throw err;
  } finally {
    client.close();
  }
}
