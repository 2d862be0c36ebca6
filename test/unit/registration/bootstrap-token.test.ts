import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import {
  BOOTSTRAP_TOKEN_PATTERN,
  bootstrapTokenSecret,
  DEFAULT_TOKEN_TTL_MS,
  formatRfc3339,
  generateBootstrapToken,
  parseBootstrapToken,
  parseRfc3339,
  readBootstrapTokenSecret,
} from '../../../lib/registration/bootstrap-token.ts';

const NOW = Date.UTC(2026, 10, 21, 10, 30, 15, 987); // 2026-11-21T10:30:15.987Z
const ID = 'abcdef';
const SECRET = '0123456789abcdef';

/** A random source that replays `bytes` (cycling), recording how many bytes were asked for. */
function replay(bytes: number[]) {
  let i = 0;
  const asked: number[] = [];
  const random = (n: number) => {
    asked.push(n);
    return Buffer.from(Array.from({ length: n }, () => bytes[i++ % bytes.length]!));
  };
  return { random, asked };
}

const decode = (secret: KubeObject) =>
  Object.fromEntries(
    Object.entries(secret.data as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
  );

describe('bootstrap token format', () => {
  it('parses <id>.<secret> and nothing else', () => {
    assert.deepEqual(parseBootstrapToken('abcdef.0123456789abcdef'), { id: 'abcdef', secret: '0123456789abcdef' });
    for (const bad of [
      'abcdef.0123456789abcde', // secret too short
      'abcdef.0123456789abcdef0', // too long
      'abcdeF.0123456789abcdef', // upper case
      'abcdef:0123456789abcdef',
      'abcdef.0123456789abcdef\n', // Go's \z: no trailing newline
      ' abcdef.0123456789abcdef',
      'abc-ef.0123456789abcdef',
      '',
    ]) {
      assert.equal(parseBootstrapToken(bad), undefined, bad);
      assert.equal(BOOTSTRAP_TOKEN_PATTERN.test(bad), false, bad);
    }
  });

  it('generates tokens matching the pattern', () => {
    for (let i = 0; i < 200; i++) {
      const t = generateBootstrapToken();
      assert.match(t.token, BOOTSTRAP_TOKEN_PATTERN);
      assert.equal(t.token, `${t.id}.${t.secret}`);
      assert.deepEqual(parseBootstrapToken(t.token), { id: t.id, secret: t.secret });
    }
  });

  it('maps bytes as Kubernetes randBytes does: byte % 36, bytes >= 252 discarded', () => {
    // 0→'0', 35→'z', 36→'0', 251→'z' (251 % 36 = 35), 252..255 skipped, 100→'s' (100 % 36 = 28).
    const { random, asked } = replay([252, 0, 253, 35, 254, 36, 255, 251, 100, 10]);
    const t = generateBootstrapToken(random);
    assert.equal(t.id, '0z0zsa');
    assert.equal(t.secret.length, 16);
    assert.deepEqual(asked.slice(0, 1), [12]); // chunks of 2 × length, like Go's bufio reader
  });

  it('fails rather than loops on a random source that only returns rejected bytes', () => {
    assert.throws(() => generateBootstrapToken(() => Buffer.alloc(12, 0xff)), /random source/);
    assert.throws(() => generateBootstrapToken(() => Buffer.alloc(3)), /random source/);
  });

  it('is uniform over [a-z0-9] (sanity check)', () => {
    const counts = new Map<string, number>();
    const n = 3000;
    for (let i = 0; i < n; i++) {
      for (const ch of generateBootstrapToken().token.replace('.', '')) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    assert.equal(counts.size, 36);
    const expected = (n * 22) / 36; // ≈ 1833 per character
    let chi2 = 0;
    for (const c of counts.values()) chi2 += (c - expected) ** 2 / expected;
    // 35 degrees of freedom: p(chi2 > 80) < 1e-5. A modulo bias (no rejection) would give chi2 ≈ 200.
    assert.ok(chi2 < 80, `chi-square ${chi2.toFixed(1)} too large: ${JSON.stringify(Object.fromEntries(counts))}`);
  });
});

describe('bootstrapTokenSecret', () => {
  it('writes the Secret as karmadactl token create does (defaults)', () => {
    const secret = bootstrapTokenSecret({ id: ID, secret: SECRET, nowMs: NOW });
    assert.equal(secret.apiVersion, 'v1');
    assert.equal(secret.kind, 'Secret');
    assert.deepEqual(secret.metadata, { name: 'bootstrap-token-abcdef', namespace: 'kube-system' });
    assert.equal(secret.type, 'bootstrap.kubernetes.io/token');
    assert.deepEqual(decode(secret), {
      'auth-extra-groups': 'system:bootstrappers:karmada:default-cluster-token',
      expiration: '2026-11-22T10:30:15Z', // now + 24h, UTC, RFC3339, sub-second truncated
      'token-id': 'abcdef',
      'token-secret': '0123456789abcdef',
      'usage-bootstrap-authentication': 'true',
      'usage-bootstrap-signing': 'true',
    });
    // Go marshals map keys sorted.
    assert.deepEqual(Object.keys(secret.data as object), Object.keys(secret.data as object).sort());
    assert.equal((secret.data as Record<string, string>)['token-id'], 'YWJjZGVm');
  });

  it('omits expiration for ttl 0, groups for [], and honours description and usages', () => {
    const secret = bootstrapTokenSecret({
      id: ID,
      secret: SECRET,
      nowMs: NOW,
      ttlMs: 0,
      groups: [],
      usages: ['signing'],
      description: 'member cluster m1',
    });
    assert.deepEqual(decode(secret), {
      description: 'member cluster m1',
      'token-id': 'abcdef',
      'token-secret': '0123456789abcdef',
      'usage-bootstrap-signing': 'true',
    });
  });

  it('rejects malformed input', () => {
    assert.throws(() => bootstrapTokenSecret({ id: 'ABCDEF', secret: SECRET, nowMs: NOW }), /token id/);
    assert.throws(() => bootstrapTokenSecret({ id: ID, secret: 'short', nowMs: NOW }), /token secret/);
    assert.throws(() => bootstrapTokenSecret({ id: ID, secret: SECRET, nowMs: NOW, ttlMs: -1 }), /ttlMs/);
    assert.throws(
      () => bootstrapTokenSecret({ id: ID, secret: SECRET, nowMs: NOW, groups: ['system:masters'] }),
      /bootstrap group "system:masters" is invalid/,
    );
    assert.throws(
      // @ts-expect-error -- an unknown usage
      () => bootstrapTokenSecret({ id: ID, secret: SECRET, nowMs: NOW, usages: ['admin'] }),
      /invalid bootstrap token usage/,
    );
  });
});

describe('readBootstrapTokenSecret', () => {
  const secret = bootstrapTokenSecret({
    id: ID,
    secret: SECRET,
    nowMs: NOW,
    description: 'd',
    groups: ['system:bootstrappers:a', 'system:bootstrappers:b'],
  });
  const expiresMs = Date.UTC(2026, 10, 22, 10, 30, 15);

  it('round-trips what bootstrapTokenSecret writes', () => {
    assert.deepEqual(readBootstrapTokenSecret(secret, NOW), {
      id: ID,
      secret: SECRET,
      expiresMs,
      expired: false,
      usages: ['authentication', 'signing'],
      groups: ['system:bootstrappers:a', 'system:bootstrappers:b'],
      description: 'd',
    });
  });

  it('is expired from the expiration instant on', () => {
    assert.equal(readBootstrapTokenSecret(secret, expiresMs - 1)?.expired, false);
    assert.equal(readBootstrapTokenSecret(secret, expiresMs)?.expired, true);
    assert.equal(readBootstrapTokenSecret(secret, NOW + DEFAULT_TOKEN_TTL_MS + 1)?.expired, true);
  });

  it('never expires without an expiration', () => {
    const forever = readBootstrapTokenSecret(
      bootstrapTokenSecret({ id: ID, secret: SECRET, nowMs: NOW, ttlMs: 0, groups: [] }),
      Number.MAX_SAFE_INTEGER,
    );
    assert.equal(forever?.expired, false);
    assert.equal(forever?.expiresMs, undefined);
    assert.deepEqual(forever?.groups, []);
    assert.equal(forever?.description, undefined);
  });

  it('reads kubectl-style stringData and only "true" usages', () => {
    const manual: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'bootstrap-token-07401b', namespace: 'kube-system' },
      type: 'bootstrap.kubernetes.io/token',
      stringData: {
        'token-id': '07401b',
        'token-secret': 'f395accd246ae52d',
        expiration: '2017-03-10T03:22:11+01:00',
        'usage-bootstrap-signing': 'true',
        'usage-bootstrap-authentication': 'yes',
        'usage-bootstrap-custom': 'true',
      },
    };
    const info = readBootstrapTokenSecret(manual, Date.UTC(2017, 2, 10, 2, 22, 10));
    assert.equal(info?.expiresMs, Date.UTC(2017, 2, 10, 2, 22, 11));
    assert.equal(info?.expired, false);
    assert.deepEqual(info?.usages, ['custom', 'signing']);
  });

  it('rejects what is not a well-formed bootstrap-token Secret', () => {
    const base = structuredClone(secret);
    const data = base.data as Record<string, string>;
    const variants: [string, KubeObject][] = [
      ['wrong type', { ...base, type: 'Opaque' }],
      ['wrong kind', { ...base, kind: 'ConfigMap' }],
      ['wrong namespace', { ...base, metadata: { ...base.metadata, namespace: 'default' } }],
      ['name/id mismatch', { ...base, metadata: { ...base.metadata, name: 'bootstrap-token-zzzzzz' } }],
      ['bad name', { ...base, metadata: { ...base.metadata, name: 'token-abcdef' } }],
      ['no secret', { ...base, data: { ...data, 'token-secret': '' } }],
      ['bad secret', { ...base, data: { ...data, 'token-secret': Buffer.from('TOOSHORT').toString('base64') } }],
      ['bad expiration', { ...base, data: { ...data, expiration: Buffer.from('tomorrow').toString('base64') } }],
      ['bad base64', { ...base, data: { ...data, description: '!!!' } }],
      ['no data', { ...base, data: undefined }],
    ];
    for (const [what, obj] of variants) assert.equal(readBootstrapTokenSecret(obj, NOW), undefined, what);
  });
});

describe('RFC3339 (Go time.RFC3339)', () => {
  it('formats like Go: UTC, whole seconds, truncated', () => {
    assert.equal(formatRfc3339(Date.UTC(2026, 0, 2, 3, 4, 5, 999)), '2026-01-02T03:04:05Z');
  });

  it('parses offsets and fractions; rejects out-of-range fields', () => {
    assert.equal(parseRfc3339('2026-01-02T03:04:05Z'), Date.UTC(2026, 0, 2, 3, 4, 5));
    assert.equal(parseRfc3339('2026-01-02T03:04:05.123456789-02:30'), Date.UTC(2026, 0, 2, 5, 34, 5, 123));
    assert.equal(parseRfc3339('2024-02-29T00:00:00Z'), Date.UTC(2024, 1, 29));
    for (const bad of [
      '2026-01-02 03:04:05Z',
      '2026-01-02T03:04:05',
      '2026-13-02T03:04:05Z',
      '2026-02-30T03:04:05Z',
      '2025-02-29T03:04:05Z',
      '2026-01-02T24:00:00Z',
      '2026-01-02T03:04:60Z',
      '2026-01-02T03:04:05+24:00',
      '2026-01-02T03:04:05z',
    ]) {
      assert.equal(parseRfc3339(bad), undefined, bad);
    }
  });
});
