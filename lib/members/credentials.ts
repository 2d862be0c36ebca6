/**
 * Member-cluster credentials at rest. As in Karmada, a Push cluster's credentials are a Secret in
 * the `karmada-cluster` namespace named by `Cluster.spec.secretRef` (keys `token`, `caBundle`, and
 * here also `tls.crt`/`tls.key`). Unlike Karmada, the values are never stored or served in the
 * clear: on every write through the API they are sealed (KMS envelope in AWS, a local key file in
 * local mode) into one annotation, and `data` keeps the key names with empty values. Only the
 * controllers that talk to the member open them. A client-side `kubectl apply` would copy the
 * values into its last-applied annotation; those are blanked too.
 */
import type { KubeObject } from '../api/object.ts';
import type { CredentialCipher, SealedSecret } from '../crypto/cipher.ts';
import { assertSealed } from '../crypto/cipher.ts';
import type { ObjectStore } from '../store/port.ts';
import type { MemberConnection } from './client.ts';

/** The namespace of cluster credentials (Karmada's `--cluster-namespace`). */
export const CREDENTIALS_NAMESPACE = 'karmada-cluster';

/**
 * The Secret holding a Pull cluster's webhook credential (sealed). The dot keeps it apart from any
 * Push cluster's credentials Secret, which is named like a cluster (cluster names have no dots).
 */
export function agentCredentialSecretName(cluster: string): string {
  return `agent.${cluster}`;
}
/** Where the sealed values live on the Secret. */
export const SEALED_ANNOTATION = 'credentials.serverless-karmada.io/sealed';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

type Obj = Record<string, unknown>;

/** True for Secrets whose values are sealed (every Secret in `karmada-cluster`). */
export function isCredentialSecret(obj: Pick<KubeObject, 'kind' | 'apiVersion' | 'metadata'>): boolean {
  return obj.kind === 'Secret' && obj.apiVersion === 'v1' && obj.metadata.namespace === CREDENTIALS_NAMESPACE;
}

/** The binding of a sealed value to its Secret: a sealed blob moved to another Secret does not open. */
function sealContext(obj: Pick<KubeObject, 'metadata'>): Record<string, string> {
  return { purpose: 'cluster-credential', secret: `${CREDENTIALS_NAMESPACE}/${obj.metadata.name ?? ''}` };
}

/** The plaintext values of a stored credential Secret (empty when it has none sealed). */
export async function openCredentialSecret(
  secret: KubeObject,
  cipher: CredentialCipher,
): Promise<Record<string, Buffer>> {
  const sealedText = secret.metadata.annotations?.[SEALED_ANNOTATION];
  if (!sealedText) return {};
  const sealed = assertSealed(JSON.parse(sealedText) as unknown);
  const plain = await cipher.open(sealed, sealContext(secret));
  const values = JSON.parse(Buffer.from(plain).toString('utf8')) as Record<string, string>;
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Buffer.from(v, 'base64')]));
}

/**
 * The Secret to store for a write of `incoming` (`existing` on update): its values — `data` (base64)
 * and `stringData` — merged over the values already sealed (a key sent empty keeps its value, as a
 * client that read the blanked Secret sends it back), sealed into the annotation, and blanked.
 */
export async function sealCredentialSecret(
  incoming: KubeObject,
  existing: KubeObject | undefined,
  cipher: CredentialCipher,
): Promise<KubeObject> {
  const values: Record<string, string> = {};
  if (existing)
    for (const [k, v] of Object.entries(await openCredentialSecret(existing, cipher))) values[k] = v.toString('base64');
  const data = (incoming.data ?? {}) as Record<string, string>;
  for (const [k, v] of Object.entries(data)) if (v !== '' && v !== undefined && v !== null) values[k] = String(v);
  const stringData = (incoming.stringData ?? {}) as Record<string, string>;
  for (const [k, v] of Object.entries(stringData)) values[k] = Buffer.from(String(v), 'utf8').toString('base64');
  // Keys dropped from `data` are dropped (a key sent empty is kept: see above).
  if (incoming.data !== undefined || incoming.stringData !== undefined) {
    const named = new Set([...Object.keys(data), ...Object.keys(stringData)]);
    for (const k of Object.keys(values)) if (!named.has(k)) delete values[k];
  }
  const out: KubeObject = { ...incoming, metadata: { ...incoming.metadata } };
  delete out.stringData;
  out.data = Object.fromEntries(Object.keys(values).map((k) => [k, '']));
  const annotations: Record<string, string> = { ...(incoming.metadata.annotations ?? {}) };
  delete annotations[SEALED_ANNOTATION];
  if (Object.keys(values).length > 0) {
    const sealed: SealedSecret = await cipher.seal(Buffer.from(JSON.stringify(values), 'utf8'), sealContext(incoming));
    annotations[SEALED_ANNOTATION] = JSON.stringify(sealed);
  }
  if (annotations[LAST_APPLIED]) annotations[LAST_APPLIED] = blankLastApplied(annotations[LAST_APPLIED]);
  out.metadata.annotations = annotations;
  return out;
}

/** kubectl's last-applied copy of the manifest, with the Secret's values removed. */
function blankLastApplied(text: string): string {
  try {
    const applied = JSON.parse(text) as Obj;
    for (const field of ['data', 'stringData']) {
      const values = applied[field] as Obj | undefined;
      if (values && typeof values === 'object') for (const k of Object.keys(values)) values[k] = '';
    }
    return JSON.stringify(applied);
  } catch {
    return '';
  }
}

/** Everything needed to call a Push cluster, from its Cluster object and credential Secret. */
export async function memberConnection(
  store: ObjectStore,
  cipher: CredentialCipher,
  cluster: KubeObject,
): Promise<MemberConnection> {
  const spec = (cluster.spec ?? {}) as {
    apiEndpoint?: string;
    secretRef?: { namespace?: string; name?: string };
    insecureSkipTLSVerification?: boolean;
  };
  if (!spec.apiEndpoint) throw new CredentialsError(`cluster ${cluster.metadata.name} has no spec.apiEndpoint`);
  const ref = spec.secretRef;
  if (!ref?.name) throw new CredentialsError(`cluster ${cluster.metadata.name} has no spec.secretRef`);
  const namespace = ref.namespace || CREDENTIALS_NAMESPACE;
  const secret = await store.get({ group: '', kind: 'Secret', namespace, name: ref.name });
  if (!secret)
    throw new CredentialsError(
      `the credentials Secret ${namespace}/${ref.name} of cluster ${cluster.metadata.name} does not exist`,
    );
  if (!isCredentialSecret(secret)) {
    throw new CredentialsError(
      `the credentials of cluster ${cluster.metadata.name} must be a Secret in namespace ${CREDENTIALS_NAMESPACE}, where they are sealed`,
    );
  }
  const values = await openCredentialSecret(secret, cipher);
  const conn: MemberConnection = { server: spec.apiEndpoint };
  if (values.caBundle?.length) conn.caPem = values.caBundle.toString('utf8');
  if (values.token?.length) conn.token = values.token.toString('utf8');
  if (values['tls.crt']?.length && values['tls.key']?.length) {
    conn.certPem = values['tls.crt'].toString('utf8');
    conn.keyPem = values['tls.key'].toString('utf8');
  }
  if (spec.insecureSkipTLSVerification) conn.insecureSkipTLSVerify = true;
  if (!conn.token && !conn.certPem) {
    throw new CredentialsError(
      `the credentials Secret of cluster ${cluster.metadata.name} has neither a token nor tls.crt/tls.key`,
    );
  }
  return conn;
}

/** A cluster's credentials are missing or unusable (the message names what, never a value). */
export class CredentialsError extends Error {
  override readonly name = 'CredentialsError';
}
