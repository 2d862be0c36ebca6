/**
 * Member clients for controllers that call members (cluster-status, executor): connections opened
 * from a Cluster's sealed credentials are cached by Cluster and Secret version (KMS is asked once, not
 * on every probe or apply), and clients by connection (warm functions reuse their TLS sessions).
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../api/object.ts';
import type { CredentialCipher } from '../crypto/cipher.ts';
import type { ObjectStore } from '../store/port.ts';
import { MemberClient, type MemberConnection } from './client.ts';
import { CREDENTIALS_NAMESPACE, memberConnection } from './credentials.ts';

/** Member clients by connection, reused across invocations of a warm function (connection reuse). */
const clients = new Map<string, MemberClient>();
const MAX_CLIENTS = 200;

export function cachedClient(conn: MemberConnection): MemberClient {
  const key = createHash('sha256').update(JSON.stringify(conn)).digest('hex');
  let client = clients.get(key);
  if (client) {
    // Most recently used last.
    clients.delete(key);
    clients.set(key, client);
    return client;
  }
  client = new MemberClient({ timeoutMs: 5_000, ...conn });
  clients.set(key, client);
  if (clients.size > MAX_CLIENTS) {
    const [oldestKey, oldest] = clients.entries().next().value as [string, MemberClient];
    clients.delete(oldestKey);
    oldest.close();
  }
  return client;
}

/**
 * Opened connections by Cluster and credential Secret version: a probe six times a minute would
 * otherwise ask KMS to decrypt the same credentials each time.
 */
const connections = new Map<string, MemberConnection>();

export async function cachedConnection(
  store: ObjectStore,
  cipher: CredentialCipher,
  cluster: KubeObject,
  nowMs: number = Date.now(),
): Promise<MemberConnection> {
  // Within a short while of opening them, the credentials of the same Cluster generation are reused
  // without reading their Secret again (an apply per Work would otherwise read it each time).
  const recent = recentConnections.get(`${cluster.metadata.uid}@${cluster.metadata.generation}`);
  if (recent && nowMs - recent.at < RECENT_MS) return recent.conn;
  const ref = (cluster.spec as { secretRef?: { namespace?: string; name?: string } } | undefined)?.secretRef;
  const secret = ref?.name
    ? await store.get({ group: '', kind: 'Secret', namespace: ref.namespace || CREDENTIALS_NAMESPACE, name: ref.name })
    : undefined;
  const key = `${cluster.metadata.uid}@${cluster.metadata.generation}|${secret?.metadata.uid}@${secret?.metadata.resourceVersion}`;
  let conn = connections.get(key);
  if (!conn) {
    conn = await memberConnection(store, cipher, cluster);
    if (connections.size >= MAX_CLIENTS) connections.delete(connections.keys().next().value as string);
    connections.set(key, conn);
  }
  if (recentConnections.size >= MAX_CLIENTS) recentConnections.delete(recentConnections.keys().next().value as string);
  recentConnections.set(`${cluster.metadata.uid}@${cluster.metadata.generation}`, { conn, at: nowMs });
  return conn;
}

/**
 * Forgets every cached client and opened connection, as a new execution environment starts without
 * them (the simulation's control-plane restart).
 */
export function forgetMemberConnections(): void {
  for (const client of clients.values()) client.close();
  clients.clear();
  connections.clear();
  recentConnections.clear();
}

/** How long opened credentials are used without checking their Secret for a rotation. */
const RECENT_MS = 30_000;
const recentConnections = new Map<string, { conn: MemberConnection; at: number }>();
