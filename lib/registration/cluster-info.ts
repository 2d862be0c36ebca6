/**
 * The `kube-public/cluster-info` ConfigMap and its detached JWS signatures — what Kubernetes'
 * bootstrapsigner controller (`pkg/controller/bootstrap/bootstrapsigner.go`, `signConfigMap`) maintains
 * and what `kubeadm join` / `karmadactl register` check before trusting the control plane.
 *
 * The signature is `jws.ComputeDetachedSignature` (`staging/src/k8s.io/cluster-bootstrap/token/jws/jws.go`):
 * a compact JWS (RFC 7515) made by go-jose with HS256, protected header `{"alg":"HS256","kid":"<tokenId>"}`
 * (Go marshals the header map with sorted keys), payload = the kubeconfig text, then the payload part is
 * removed (`header..signature`, RFC 7515 appendix F). The HMAC key is the token secret's bytes, zero-padded
 * to 32 bytes when shorter (a go-jose key-length requirement; HMAC zero-pads keys to its 64-byte block
 * anyway, so the padding does not change the result).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { KubeObject } from '../api/object.ts';
import { BOOTSTRAP_TOKEN_ID_PATTERN } from './bootstrap-token.ts';

/** `metav1.NamespacePublic`. */
export const CLUSTER_INFO_NAMESPACE = 'kube-public';
/** `api.ConfigMapClusterInfo`. */
export const CLUSTER_INFO_NAME = 'cluster-info';
/** `api.KubeConfigKey`. */
export const CLUSTER_INFO_KUBECONFIG_KEY = 'kubeconfig';
/** `api.JWSSignatureKeyPrefix`. */
export const JWS_SIGNATURE_KEY_PREFIX = 'jws-kubeconfig-';

/**
 * A JSON string literal as Go's `encoding/json` (and go-jose's fork of it) writes it: HTML-safe
 * (`<`, `>`, `&` → `\u003c`…), U+2028/U+2029 escaped, control characters as `\n`, `\r`, `\t` or
 * `\u00XX`, invalid UTF-16 (lone surrogates, which would be invalid UTF-8 in Go) as `\ufffd`.
 * Token ids are `[a-z0-9]{6}`, for which this equals `JSON.stringify`; the rest only keeps odd ids exact.
 */
function goJsonString(s: string): string {
  const hex = '0123456789abcdef';
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&') out += '\\u00' + hex[c >> 4] + hex[c & 0xf];
    else if (c === 0x2028 || c === 0x2029) out += '\\u' + c.toString(16);
    else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else out += ch;
  }
  return out + '"';
}

const base64url = (data: string | Buffer) =>
  (typeof data === 'string' ? Buffer.from(data, 'utf8') : data).toString('base64url');

/**
 * The detached JWS the bootstrapsigner stores under `jws-kubeconfig-<tokenId>`: byte-for-byte
 * `jws.ComputeDetachedSignature(kubeconfig, tokenId, tokenSecret)`.
 *
 * @example
 * signClusterInfo('Hello from the other side. I must have called a thousand times.', 'joshua', 'my voice is my passcode');
 * // 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8' (Kubernetes' jws_test.go)
 */
export function signClusterInfo(kubeconfig: string, tokenId: string, tokenSecret: string): string {
  const header = base64url(`{"alg":"HS256","kid":${goJsonString(tokenId)}}`);
  const payload = base64url(kubeconfig);
  let key = Buffer.from(tokenSecret, 'utf8');
  if (key.length < 32) {
    const padded = Buffer.alloc(32);
    key.copy(padded);
    key = padded;
  }
  const signature = createHmac('sha256', key).update(`${header}.${payload}`, 'ascii').digest();
  return `${header}..${base64url(signature)}`;
}

/**
 * `jws.DetachedTokenIsValid`: recomputes the signature and compares it with `jws` in constant time
 * (Kubernetes uses `==`; the result is the same).
 */
export function verifyClusterInfo(kubeconfig: string, jws: string, tokenId: string, tokenSecret: string): boolean {
  if (typeof jws !== 'string') return false;
  const expected = Buffer.from(signClusterInfo(kubeconfig, tokenId, tokenSecret), 'utf8');
  const actual = Buffer.from(jws, 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * The ConfigMap `kube-public/cluster-info`: `data.kubeconfig` plus one `jws-kubeconfig-<id>` per token,
 * i.e. what the bootstrapsigner leaves after signing with exactly these tokens (the caller picks them as
 * the signer does: unexpired bootstrap-token Secrets with usage `signing`). Throws on a malformed or
 * duplicate token id.
 */
export function clusterInfoConfigMap(
  kubeconfig: string,
  tokens: readonly { id: string; secret: string }[],
): KubeObject {
  const data: Record<string, string> = { [CLUSTER_INFO_KUBECONFIG_KEY]: kubeconfig };
  const seen = new Set<string>();
  for (const { id, secret } of [...tokens].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (typeof id !== 'string' || !BOOTSTRAP_TOKEN_ID_PATTERN.test(id)) {
      throw new Error(`cluster-info: token id must match ${BOOTSTRAP_TOKEN_ID_PATTERN.source}`);
    }
    if (seen.has(id)) throw new Error(`cluster-info: duplicate token id "${id}"`);
    seen.add(id);
    data[JWS_SIGNATURE_KEY_PREFIX + id] = signClusterInfo(kubeconfig, id, secret);
  }
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: CLUSTER_INFO_NAME, namespace: CLUSTER_INFO_NAMESPACE },
    data,
  };
}

/**
 * The joining side (`karmadactl register` / kubeadm token discovery): the kubeconfig of a `cluster-info`
 * ConfigMap if it carries a valid `jws-kubeconfig-<tokenId>` for this token, else `undefined` (no such
 * signature yet — the joiner keeps polling — or a bad one). Checking that the kubeconfig names exactly
 * one cluster, and pinning its CA, is the caller's next step.
 */
export function verifiedClusterInfoKubeconfig(
  configMap: KubeObject,
  tokenId: string,
  tokenSecret: string,
): string | undefined {
  const data = configMap?.data as Record<string, unknown> | undefined;
  if (!data || typeof data !== 'object') return undefined;
  const kubeconfig = data[CLUSTER_INFO_KUBECONFIG_KEY];
  const jws = data[JWS_SIGNATURE_KEY_PREFIX + tokenId];
  if (typeof kubeconfig !== 'string' || typeof jws !== 'string') return undefined;
  return verifyClusterInfo(kubeconfig, jws, tokenId, tokenSecret) ? kubeconfig : undefined;
}
