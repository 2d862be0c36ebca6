import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createCertificateAuthority, caCertHash as pkiCaCertHash } from '../../../lib/pki/index.ts';
import {
  caCertHash,
  caCertHashes,
  parseCaPin,
  rawSubjectPublicKeyInfo,
  verifyCaPin,
} from '../../../lib/registration/ca-pin.ts';
import { EC_CA_PEM, EC_CA_PIN, RSA_CA_PEM, RSA_CA_PIN } from './fixtures.ts';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

describe('caCertHash (kubeadm pubkeypin.Hash)', () => {
  it('matches the pins computed with the openssl CLI for the fixtures', () => {
    assert.equal(caCertHash(EC_CA_PEM), EC_CA_PIN);
    assert.equal(caCertHash(RSA_CA_PEM), RSA_CA_PIN);
  });

  it('hashes the SPKI bytes exactly as they sit in the certificate (= Node re-export for these keys)', () => {
    for (const pem of [EC_CA_PEM, RSA_CA_PEM]) {
      const cert = new X509Certificate(pem);
      assert.deepEqual(rawSubjectPublicKeyInfo(cert.raw), cert.publicKey.export({ type: 'spki', format: 'der' }));
    }
  });

  it('agrees with lib/pki for a CA made by lib/pki', async () => {
    const ca = await createCertificateAuthority({ commonName: 'x', now: Date.UTC(2026, 0, 1), validityDays: 1 });
    assert.equal(caCertHash(ca.certPem), pkiCaCertHash(ca.certPem));
  });

  it('hashes every certificate of a bundle; caCertHash takes the first', () => {
    const bundle = `${EC_CA_PEM}\n${RSA_CA_PEM}`;
    assert.deepEqual(caCertHashes(bundle), [EC_CA_PIN, RSA_CA_PIN]);
    assert.equal(caCertHash(bundle), EC_CA_PIN);
  });

  it('throws on something that is not a certificate', () => {
    assert.throws(() => caCertHash('hello'), /no PEM certificate/);
    assert.throws(
      () => caCertHash('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'),
      /not a valid PEM certificate/,
    );
    assert.throws(() => rawSubjectPublicKeyInfo(Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01])), /DER/);
  });
});

describe(
  'caCertHash against certificates generated now with openssl',
  { skip: !hasOpenssl && 'no openssl CLI' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'ca-pin-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    const keyTypes: [string, string[]][] = [
      ['ec-p256', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1']],
      ['ec-p384', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:secp384r1']],
      ['rsa-2048', ['-newkey', 'rsa:2048']],
      ['ed25519', ['-newkey', 'ed25519']],
    ];
    for (const [name, keyArgs] of keyTypes) {
      it(`${name}: equals openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256`, () => {
        const crt = join(dir, `${name}.crt`);
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            ...keyArgs,
            '-nodes',
            '-keyout',
            join(dir, `${name}.key`),
            '-out',
            crt,
            '-subj',
            `/CN=${name}`,
            '-days',
            '1',
          ],
          { stdio: 'pipe' },
        );
        const pubPem = execFileSync('openssl', ['x509', '-in', crt, '-pubkey', '-noout']);
        const spkiDer = execFileSync('openssl', ['pkey', '-pubin', '-outform', 'der'], { input: pubPem });
        const digest = execFileSync('openssl', ['dgst', '-sha256', '-hex'], { input: spkiDer }).toString();
        const hex = /([0-9a-f]{64})\s*$/.exec(digest)?.[1];
        assert.ok(hex, digest);
        const pem = readFileSync(crt, 'utf8');
        assert.equal(caCertHash(pem), `sha256:${hex}`);
        assert.equal(verifyCaPin(pem, `sha256:${hex}`), true);
      });
    }
  },
);

describe('parseCaPin / verifyCaPin (kubeadm Set.Allow / CheckAny)', () => {
  it('accepts the right pin, case-insensitively as kubeadm does', () => {
    assert.equal(verifyCaPin(EC_CA_PEM, EC_CA_PIN), true);
    assert.equal(verifyCaPin(EC_CA_PEM, EC_CA_PIN.toUpperCase()), true);
    assert.equal(parseCaPin(EC_CA_PIN.toUpperCase()), EC_CA_PIN);
  });

  it('rejects another key', () => {
    assert.equal(verifyCaPin(EC_CA_PEM, RSA_CA_PIN), false);
    assert.equal(verifyCaPin(RSA_CA_PEM, EC_CA_PIN), false);
  });

  it('accepts any certificate of a bundle', () => {
    assert.equal(verifyCaPin(`${EC_CA_PEM}${RSA_CA_PEM}`, RSA_CA_PIN), true);
  });

  it('throws a clear error for a malformed pin', () => {
    const hex = EC_CA_PIN.slice('sha256:'.length);
    assert.throws(() => verifyCaPin(EC_CA_PEM, hex), /expected "format:hex-value"/);
    assert.throws(() => verifyCaPin(EC_CA_PEM, `sha1:${hex}`), /unknown CA pin format "sha1"/);
    assert.throws(() => verifyCaPin(EC_CA_PEM, `md5:${hex}`), /unknown CA pin format/);
    assert.throws(() => verifyCaPin(EC_CA_PEM, `sha256:${hex.slice(2)}`), /64 hex digits\), found 62/);
    assert.throws(() => verifyCaPin(EC_CA_PEM, `sha256:${hex}00`), /found 66/);
    assert.throws(() => verifyCaPin(EC_CA_PEM, `sha256:${'g'.repeat(64)}`), /could not decode/);
    assert.throws(() => verifyCaPin(EC_CA_PEM, `sha256:${hex}:x`), /format:hex-value/);
    assert.throws(() => verifyCaPin(EC_CA_PEM, ''), /format:hex-value/);
  });
});
