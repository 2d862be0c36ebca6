import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  generateClusterCredential,
  signWebhookRequest,
  verifyWebhookRequest,
  WEBHOOK_HEADERS,
  type WebhookVerdict,
  webhookCanonicalString,
} from '../../../lib/registration/webhook-signing.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const SECRETS: Record<string, string> = {
  m1: generateClusterCredential(() => Buffer.alloc(32, 1)),
  m2: generateClusterCredential(() => Buffer.alloc(32, 2)),
};
const PATH = '/webhooks/v1/clusters/m1/status?reason=heartbeat';
const BODY = Buffer.from(JSON.stringify({ kind: 'ClusterStatus', ready: true }));
const NONCE = 'nonce-0123456789ABCDEF';

const secretFor = async (cluster: string) => SECRETS[cluster];

function signed(overrides: Partial<Parameters<typeof signWebhookRequest>[0]> = {}) {
  return signWebhookRequest({
    method: 'POST',
    path: PATH,
    body: BODY,
    cluster: 'm1',
    secret: SECRETS.m1!,
    nowMs: NOW,
    nonce: NONCE,
    ...overrides,
  });
}

function verify(overrides: Partial<Parameters<typeof verifyWebhookRequest>[0]> = {}): Promise<WebhookVerdict> {
  return verifyWebhookRequest({
    method: 'POST',
    path: PATH,
    pathCluster: 'm1',
    body: BODY,
    headers: signed(),
    nowMs: NOW,
    secretFor,
    ...overrides,
  });
}

function assertDenied(verdict: WebhookVerdict, status: 401 | 403, reason: RegExp) {
  assert.equal(verdict.ok, false, JSON.stringify(verdict));
  if (verdict.ok) return;
  assert.equal(verdict.status, status);
  assert.match(verdict.reason, reason);
  for (const secret of Object.values(SECRETS)) assert.ok(!verdict.reason.includes(secret), 'reason leaks the secret');
  const expected = signed()[WEBHOOK_HEADERS.signature]!.slice(3);
  assert.ok(!verdict.reason.includes(expected), 'reason leaks the expected signature');
}

describe('generateClusterCredential', () => {
  it('is 32 random bytes as base64url', () => {
    const c = generateClusterCredential();
    assert.match(c, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(c, 'base64url').length, 32);
    assert.notEqual(generateClusterCredential(), c);
    assert.equal(
      generateClusterCredential(() => Buffer.alloc(32, 0xff)),
      '_'.repeat(42) + '8',
    );
    assert.throws(() => generateClusterCredential(() => Buffer.alloc(16)), /32 bytes/);
  });
});

describe('signWebhookRequest', () => {
  it('returns the four headers, signature = v1=hex(HMAC-SHA256(secret, canonical))', () => {
    const headers = signed();
    assert.deepEqual(Object.keys(headers).sort(), Object.values(WEBHOOK_HEADERS).sort());
    assert.equal(headers[WEBHOOK_HEADERS.cluster], 'm1');
    assert.equal(headers[WEBHOOK_HEADERS.timestamp], String(NOW));
    assert.equal(headers[WEBHOOK_HEADERS.nonce], NONCE);
    // Recompute from the documented format by hand.
    const canonical = [
      'KARMADA-WEBHOOK-V1',
      'POST',
      PATH,
      'm1',
      String(NOW),
      NONCE,
      createHash('sha256').update(BODY).digest('hex'),
    ].join('\n');
    assert.equal(
      webhookCanonicalString({ method: 'post', path: PATH, cluster: 'm1', timestampMs: NOW, nonce: NONCE, body: BODY }),
      canonical,
    );
    const mac = createHmac('sha256', SECRETS.m1!).update(canonical).digest('hex');
    assert.equal(headers[WEBHOOK_HEADERS.signature], `v1=${mac}`);
  });

  it('makes a fresh well-formed nonce by default', () => {
    const a = signed({ nonce: undefined })[WEBHOOK_HEADERS.nonce]!;
    const b = signed({ nonce: undefined })[WEBHOOK_HEADERS.nonce]!;
    assert.match(a, /^[A-Za-z0-9_-]{22}$/);
    assert.notEqual(a, b);
    assert.equal(signed({ nonce: undefined, random: () => Buffer.alloc(16) })[WEBHOOK_HEADERS.nonce], 'A'.repeat(22));
  });

  it('refuses inputs the verifier would reject', () => {
    assert.throws(() => signed({ nonce: 'short' }), /nonce/);
    assert.throws(() => signed({ nonce: 'x'.repeat(65) }), /nonce/);
    assert.throws(() => signed({ nonce: 'has space in it!!' }), /nonce/);
    assert.throws(() => signed({ cluster: 'Bad_Name' }), /cluster name/);
    assert.throws(() => signed({ secret: '' }), /credential/);
    assert.throws(() => signed({ path: 'webhooks' }), /path/);
    assert.throws(() => signed({ path: '/a\nb' }), /path/);
    assert.throws(() => signed({ method: 'PO ST' }), /method/);
    assert.throws(() => signed({ nowMs: -1 }), /nowMs/);
  });
});

describe('verifyWebhookRequest', () => {
  it('accepts a valid request and returns cluster, nonce and timestamp', async () => {
    assert.deepEqual(await verify(), { ok: true, cluster: 'm1', nonce: NONCE, timestampMs: NOW });
  });

  it('accepts a lower-case method and headers in any case', async () => {
    const headers = Object.fromEntries(Object.entries(signed()).map(([k, v]) => [k.toUpperCase(), v]));
    assert.equal((await verify({ headers, method: 'post' })).ok, true);
  });

  it('accepts an empty body', async () => {
    const body = new Uint8Array();
    assert.equal((await verify({ body, headers: signed({ body }) })).ok, true);
  });

  it('rejects a tampered body, path, query, method, nonce or timestamp', async () => {
    assertDenied(
      await verify({ body: Buffer.from('{"kind":"ClusterStatus","ready":false}') }),
      401,
      /signature mismatch/,
    );
    assertDenied(await verify({ path: '/webhooks/v1/clusters/m1/lease?reason=heartbeat' }), 401, /signature mismatch/);
    assertDenied(await verify({ path: '/webhooks/v1/clusters/m1/status' }), 401, /signature mismatch/);
    assertDenied(await verify({ method: 'PUT' }), 401, /signature mismatch/);
    assertDenied(
      await verify({ headers: { ...signed(), [WEBHOOK_HEADERS.nonce]: 'nonce-0123456789ABCDEX' } }),
      401,
      /signature mismatch/,
    );
    assertDenied(
      await verify({ headers: { ...signed(), [WEBHOOK_HEADERS.timestamp]: String(NOW + 1) } }),
      401,
      /signature mismatch/,
    );
    const sig = signed()[WEBHOOK_HEADERS.signature]!;
    const flipped = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
    assertDenied(await verify({ headers: { ...signed(), [WEBHOOK_HEADERS.signature]: flipped } }), 401, /mismatch/);
  });

  it('rejects a request signed with another cluster’s secret', async () => {
    assertDenied(await verify({ headers: signed({ secret: SECRETS.m2! }) }), 401, /signature mismatch/);
  });

  it('rejects stale and future timestamps, accepts the skew boundary', async () => {
    const skew = 5 * 60_000;
    assertDenied(await verify({ nowMs: NOW + skew + 1 }), 401, /^stale or future timestamp$/);
    assertDenied(await verify({ nowMs: NOW - skew - 1 }), 401, /^stale or future timestamp$/);
    assert.equal((await verify({ nowMs: NOW + skew })).ok, true);
    assert.equal((await verify({ nowMs: NOW - skew })).ok, true);
    assertDenied(await verify({ nowMs: NOW + 1001, maxSkewMs: 1000 }), 401, /stale or future/);
  });

  it('forbids a cluster posting for another cluster (403)', async () => {
    assertDenied(
      await verify({
        path: '/webhooks/v1/clusters/m2/status',
        pathCluster: 'm2',
        headers: signed({ path: '/webhooks/v1/clusters/m2/status' }),
      }),
      403,
      /^cluster m1 may not post for cluster m2$/,
    );
  });

  it('gives 401, not 403, for an unauthenticated cross-cluster request', async () => {
    assertDenied(await verify({ pathCluster: 'm2', headers: signed({ secret: 'guess' }) }), 401, /signature mismatch/);
  });

  it('rejects an unknown cluster (and an empty secret) with 401', async () => {
    const headers = signed({ cluster: 'm3', secret: 'whatever' });
    assertDenied(await verify({ headers, pathCluster: 'm3' }), 401, /unknown cluster "m3"/);
    assertDenied(await verify({ secretFor: async () => '' }), 401, /unknown cluster/);
  });

  it('rejects missing and malformed headers with 401', async () => {
    const h = signed();
    for (const name of Object.values(WEBHOOK_HEADERS)) {
      const headers: Record<string, string | undefined> = { ...h, [name]: undefined };
      assertDenied(await verify({ headers }), 401, new RegExp(`missing header\\(s\\): ${name}`));
    }
    assertDenied(await verify({ headers: {} }), 401, /missing header/);
    const malformed: [string, string, RegExp][] = [
      [WEBHOOK_HEADERS.cluster, 'M1', /malformed x-karmada-cluster/],
      [WEBHOOK_HEADERS.cluster, 'm1, m2', /malformed x-karmada-cluster/],
      [WEBHOOK_HEADERS.timestamp, 'yesterday', /malformed x-karmada-timestamp/],
      [WEBHOOK_HEADERS.timestamp, `${NOW}.5`, /malformed x-karmada-timestamp/],
      [WEBHOOK_HEADERS.timestamp, `-${NOW}`, /malformed x-karmada-timestamp/],
      [WEBHOOK_HEADERS.timestamp, '1'.repeat(20), /malformed x-karmada-timestamp/],
      [WEBHOOK_HEADERS.nonce, 'short', /malformed x-karmada-nonce/],
      [WEBHOOK_HEADERS.nonce, 'n'.repeat(65), /malformed x-karmada-nonce/],
      [WEBHOOK_HEADERS.nonce, 'nonce with spaces!!', /malformed x-karmada-nonce/],
      [WEBHOOK_HEADERS.signature, h[WEBHOOK_HEADERS.signature]!.slice(3), /malformed x-karmada-signature/],
      [WEBHOOK_HEADERS.signature, h[WEBHOOK_HEADERS.signature]!.replace('v1=', 'v2='), /malformed x-karmada-signature/],
      [WEBHOOK_HEADERS.signature, h[WEBHOOK_HEADERS.signature]!.toUpperCase(), /malformed x-karmada-signature/],
      [WEBHOOK_HEADERS.signature, 'v1=abc', /malformed x-karmada-signature/],
    ];
    for (const [name, value, reason] of malformed) {
      assertDenied(await verify({ headers: { ...h, [name]: value } }), 401, reason);
    }
  });

  it('does not consult secretFor before the headers and timestamp check out', async () => {
    let calls = 0;
    const counting = async (c: string) => {
      calls++;
      return SECRETS[c];
    };
    await verify({ headers: { ...signed(), [WEBHOOK_HEADERS.nonce]: 'bad' }, secretFor: counting });
    await verify({ nowMs: NOW + 3_600_000, secretFor: counting });
    assert.equal(calls, 0);
  });
});
