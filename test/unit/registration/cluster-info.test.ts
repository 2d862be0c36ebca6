import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  clusterInfoConfigMap,
  signClusterInfo,
  verifiedClusterInfoKubeconfig,
  verifyClusterInfo,
} from '../../../lib/registration/cluster-info.ts';

// Test vectors of Kubernetes' staging/src/k8s.io/cluster-bootstrap/token/jws/jws_test.go
// (TestComputeDetachedSignature), i.e. what go-jose + jws.ComputeDetachedSignature produce.
const K8S_CONTENT = 'Hello from the other side. I must have called a thousand times.';
const K8S_SECRET = 'my voice is my passcode';
const K8S_ID = 'joshua';

// A cluster-info kubeconfig (as kubeadm / karmadactl init upload it) and a token abcdef.0123456789abcdef.
const KUBECONFIG = `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTg==
    server: https://karmada-apiserver.karmada-system.svc:5443
  name: ""
contexts: null
current-context: ""
kind: Config
preferences: {}
users: null
`;
/*
 * Computed independently from RFC 7515 with the openssl CLI (bash):
 *   b64u() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
 *   H=$(printf '%s' '{"alg":"HS256","kid":"abcdef"}' | b64u)
 *   P=$(printf '%s' "$KUBECONFIG" | b64u)      # the exact text above, trailing newline included
 *   S=$(printf '%s' "$H.$P" | openssl dgst -sha256 -mac HMAC -macopt key:0123456789abcdef -binary | b64u)
 *   echo "$H..$S"
 * (The same pipeline with kid "joshua" and key "my voice is my passcode" reproduces the Kubernetes vector,
 * confirming that jws.go's zero-padding of the key to 32 bytes does not change the HMAC.)
 */
const KUBECONFIG_JWS = 'eyJhbGciOiJIUzI1NiIsImtpZCI6ImFiY2RlZiJ9..w2nQhlSZarl7DiTMsF3L7sFF8n0gRAh0AbwGGoJOpBg';

describe('signClusterInfo (jws.ComputeDetachedSignature)', () => {
  it('matches the Kubernetes jws_test.go vectors', () => {
    assert.equal(
      signClusterInfo(K8S_CONTENT, K8S_ID, K8S_SECRET),
      'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8',
    );
    // null content
    assert.equal(
      signClusterInfo('', K8S_ID, K8S_SECRET),
      'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk',
    );
    // no secret (key = 32 zero bytes)
    assert.equal(
      signClusterInfo(K8S_CONTENT, K8S_ID, ''),
      'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..UfkqvDGiIFxrMnFseDj9LYJOLNrvjW8aHhF71mvvAs8',
    );
  });

  it('matches an independently computed signature of a kubeconfig', () => {
    assert.equal(signClusterInfo(KUBECONFIG, 'abcdef', '0123456789abcdef'), KUBECONFIG_JWS);
  });

  it('has the detached form header..signature with header {"alg":"HS256","kid":<id>}', () => {
    const [header, payload, signature, ...rest] = KUBECONFIG_JWS.split('.');
    assert.equal(payload, '');
    assert.equal(rest.length, 0);
    assert.equal(Buffer.from(header!, 'base64url').toString(), '{"alg":"HS256","kid":"abcdef"}');
    assert.match(signature!, /^[A-Za-z0-9_-]{43}$/);
  });
});

describe('verifyClusterInfo (jws.DetachedTokenIsValid)', () => {
  it('accepts the right signature and rejects any change', () => {
    assert.equal(
      verifyClusterInfo(K8S_CONTENT, signClusterInfo(K8S_CONTENT, K8S_ID, K8S_SECRET), K8S_ID, K8S_SECRET),
      true,
    );
    assert.equal(verifyClusterInfo(KUBECONFIG, KUBECONFIG_JWS, 'abcdef', '0123456789abcdef'), true);
    // jws_test.go: signature + "foo" is invalid
    assert.equal(verifyClusterInfo(KUBECONFIG, KUBECONFIG_JWS + 'foo', 'abcdef', '0123456789abcdef'), false);
    assert.equal(verifyClusterInfo(KUBECONFIG + ' ', KUBECONFIG_JWS, 'abcdef', '0123456789abcdef'), false);
    assert.equal(verifyClusterInfo(KUBECONFIG, KUBECONFIG_JWS, 'abcdeg', '0123456789abcdef'), false);
    assert.equal(verifyClusterInfo(KUBECONFIG, KUBECONFIG_JWS, 'abcdef', '0123456789abcdee'), false);
    assert.equal(verifyClusterInfo(KUBECONFIG, '', 'abcdef', '0123456789abcdef'), false);
  });
});

describe('clusterInfoConfigMap', () => {
  const tokens = [
    { id: 'zzzzzz', secret: 'abcdefabcdefabcd' },
    { id: 'abcdef', secret: '0123456789abcdef' },
  ];
  const cm = clusterInfoConfigMap(KUBECONFIG, tokens);

  it('is kube-public/cluster-info with the kubeconfig and one signature per token', () => {
    assert.equal(cm.apiVersion, 'v1');
    assert.equal(cm.kind, 'ConfigMap');
    assert.deepEqual(cm.metadata, { name: 'cluster-info', namespace: 'kube-public' });
    assert.deepEqual(cm.data, {
      kubeconfig: KUBECONFIG,
      'jws-kubeconfig-abcdef': KUBECONFIG_JWS,
      'jws-kubeconfig-zzzzzz': signClusterInfo(KUBECONFIG, 'zzzzzz', 'abcdefabcdefabcd'),
    });
  });

  it('lets a joiner verify with its own token only', () => {
    assert.equal(verifiedClusterInfoKubeconfig(cm, 'abcdef', '0123456789abcdef'), KUBECONFIG);
    assert.equal(verifiedClusterInfoKubeconfig(cm, 'zzzzzz', 'abcdefabcdefabcd'), KUBECONFIG);
    assert.equal(verifiedClusterInfoKubeconfig(cm, 'abcdef', 'abcdefabcdefabcd'), undefined);
    assert.equal(verifiedClusterInfoKubeconfig(cm, 'qqqqqq', '0123456789abcdef'), undefined); // not signed (yet)
    const tampered = { ...cm, data: { ...(cm.data as object), kubeconfig: KUBECONFIG.replace('5443', '6443') } };
    assert.equal(verifiedClusterInfoKubeconfig(tampered, 'abcdef', '0123456789abcdef'), undefined);
  });

  it('rejects malformed or duplicate token ids', () => {
    assert.throws(() => clusterInfoConfigMap(KUBECONFIG, [{ id: 'ABC', secret: 'x' }]), /token id/);
    assert.throws(() => clusterInfoConfigMap(KUBECONFIG, [tokens[1]!, tokens[1]!]), /duplicate/);
  });

  it('with no tokens carries only the kubeconfig', () => {
    assert.deepEqual(clusterInfoConfigMap(KUBECONFIG, []).data, { kubeconfig: KUBECONFIG });
  });
});
