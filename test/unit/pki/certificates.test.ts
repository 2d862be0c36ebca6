import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import {
  type CertificateAuthority,
  CERTIFICATE_BACKDATE_MS,
  caCertHash,
  createCertificateAuthority,
  type IssueCertificateOptions,
  issueCertificate,
  PkiOptionsError,
} from '../../../lib/pki/index.ts';
import { x509 } from '../../../lib/pki/x509.ts';
import { caFactory, NOW, serverCertFactory, tempDir } from './fixtures.ts';

const DAY_MS = 86_400_000;
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';

/** The parsed view of a certificate the assertions need (Node for verification, @peculiar for extensions). */
function inspectCert(pem: string) {
  const peculiar = new x509.X509Certificate(pem);
  return {
    node: new X509Certificate(pem),
    basic: peculiar.getExtension(x509.BasicConstraintsExtension),
    keyUsage: peculiar.getExtension(x509.KeyUsagesExtension),
    extendedKeyUsage: peculiar.getExtension(x509.ExtendedKeyUsageExtension),
    ski: peculiar.getExtension(x509.SubjectKeyIdentifierExtension),
    aki: peculiar.getExtension(x509.AuthorityKeyIdentifierExtension),
    serialHex: peculiar.serialNumber,
  };
}

describe('createCertificateAuthority', () => {
  let ca: CertificateAuthority;
  before(async () => {
    ca = await caFactory(NOW, 10, 'serverless-karmada-ca');
  });

  it('makes a self-signed ECDSA P-256 CA with critical CA:true and keyCertSign+cRLSign, and a SKI', () => {
    const cert = inspectCert(ca.certPem);
    assert.equal(cert.node.ca, true);
    assert.equal(cert.node.subject, 'CN=serverless-karmada-ca');
    assert.equal(cert.node.issuer, cert.node.subject);
    assert.ok(cert.node.verify(cert.node.publicKey), 'self-signed');
    assert.equal(cert.node.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.equal(cert.basic?.ca, true);
    assert.equal(cert.basic?.critical, true);
    assert.equal(cert.keyUsage?.usages, x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign);
    assert.equal(cert.keyUsage?.critical, true);
    assert.match(cert.ski?.keyId ?? '', /^[0-9a-f]{40}$/);
  });

  it('writes the key as unencrypted PKCS#8 PEM, matching the certificate', () => {
    assert.match(ca.keyPem, /^-----BEGIN PRIVATE KEY-----\n/);
    assert.ok(new X509Certificate(ca.certPem).checkPrivateKey(createPrivateKey(ca.keyPem)));
  });

  it('is valid from `now` minus the backdate for `validityDays`', () => {
    const cert = new X509Certificate(ca.certPem);
    assert.equal(Date.parse(cert.validFrom), NOW - CERTIFICATE_BACKDATE_MS);
    assert.equal(Date.parse(cert.validTo), NOW + 10 * DAY_MS);
  });

  it('draws a random positive 16-octet serial each time', async () => {
    const other = await caFactory();
    const serials = [inspectCert(ca.certPem).serialHex, inspectCert(other.certPem).serialHex];
    for (const serial of serials) assert.match(serial, /^[4-7][0-9a-f]{31}$/);
    assert.notEqual(serials[0], serials[1]);
  });

  for (const [name, options, option] of [
    ['an empty common name', { commonName: ' ', now: NOW, validityDays: 1 }, 'commonName'],
    ['zero validity', { commonName: 'ca', now: NOW, validityDays: 0 }, 'validityDays'],
    ['a time that is not a number', { commonName: 'ca', now: Number.NaN, validityDays: 1 }, 'now'],
    [
      'a misspelt option',
      { commonName: 'ca', now: NOW, validityDay: 1 },
      'createCertificateAuthority option "validityDay"',
    ],
  ] as const) {
    it(`rejects ${name}`, async () => {
      await assert.rejects(
        createCertificateAuthority(options as never),
        (err: unknown) => err instanceof PkiOptionsError && err.option === option,
      );
    });
  }
});

describe('issueCertificate', () => {
  let ca: CertificateAuthority;
  before(async () => {
    ca = await caFactory(NOW, 100);
  });

  const usages = [
    { usage: 'server', eku: [SERVER_AUTH] },
    { usage: 'client', eku: [CLIENT_AUTH] },
    { usage: 'server-and-client', eku: [SERVER_AUTH, CLIENT_AUTH] },
  ] as const;
  for (const { usage, eku } of usages) {
    it(`issues a ${usage} certificate the CA verifies, with its SANs, EKU, digitalSignature and CA:false`, async () => {
      const leaf = await serverCertFactory(ca, { usage, ipAddresses: ['127.0.0.1', '::1'] });
      const cert = inspectCert(leaf.certPem);
      const caCert = inspectCert(ca.certPem);
      assert.ok(cert.node.verify(caCert.node.publicKey));
      assert.ok(cert.node.checkIssued(caCert.node));
      assert.equal(cert.node.ca, false);
      assert.equal(cert.basic?.ca, false);
      assert.equal(cert.basic?.critical, true);
      assert.equal(cert.keyUsage?.usages, x509.KeyUsageFlags.digitalSignature);
      assert.equal(cert.keyUsage?.critical, true);
      assert.deepEqual([...(cert.extendedKeyUsage?.usages ?? [])], eku);
      assert.deepEqual(cert.node.keyUsage, eku, 'Node reads the same extendedKeyUsage');
      assert.equal(cert.node.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
      assert.equal(cert.node.checkIP('127.0.0.1'), '127.0.0.1');
      assert.equal(cert.node.checkHost('localhost'), 'localhost');
      assert.equal(cert.aki?.keyId, caCert.ski?.keyId, 'authority key identifier = CA subject key identifier');
      assert.ok(cert.node.checkPrivateKey(createPrivateKey(leaf.keyPem)));
      assert.match(leaf.keyPem, /^-----BEGIN PRIVATE KEY-----\n/);
    });
  }

  it('puts the organization in O= of a client certificate (the Kubernetes group), before the CN', async () => {
    const leaf = await issueCertificate(ca, {
      commonName: 'system:karmada:agent:member1',
      usage: 'client',
      organization: 'system:karmada:agents',
      now: NOW,
      validityDays: 30,
    });
    const cert = new X509Certificate(leaf.certPem);
    assert.equal(cert.subject, 'O=system:karmada:agents\nCN=system:karmada:agent:member1');
    assert.equal(cert.subjectAltName, undefined);
  });

  it('chains in openssl too, and only to its own CA', async () => {
    const { dir, cleanup } = tempDir('openssl');
    try {
      // openssl checks validity against the wall clock, so these are made "now".
      const [mine, other] = await Promise.all([caFactory(Date.now(), 1), caFactory(Date.now(), 1)]);
      const leaf = await serverCertFactory(mine, { now: Date.now(), validityDays: 1 });
      writeFileSync(join(dir, 'mine.pem'), mine.certPem);
      writeFileSync(join(dir, 'other.pem'), other.certPem);
      writeFileSync(join(dir, 'leaf.pem'), leaf.certPem);
      const verify = (caFile: string) =>
        execFileSync('openssl', ['verify', '-CAfile', join(dir, caFile), join(dir, 'leaf.pem')], { stdio: 'pipe' });
      assert.match(verify('mine.pem').toString(), /leaf\.pem: OK/);
      assert.throws(() => verify('other.pem'));
    } finally {
      cleanup();
    }
  });

  it('never outlasts the CA', async () => {
    const leaf = await serverCertFactory(ca, { validityDays: 365 });
    assert.equal(new X509Certificate(leaf.certPem).validTo, new X509Certificate(ca.certPem).validTo);
  });

  const rejections: {
    name: string;
    options: Partial<IssueCertificateOptions> & Record<string, unknown>;
    option: string;
  }[] = [
    { name: 'an IP address given as a DNS name', options: { dnsNames: ['10.0.0.1'] }, option: 'dnsNames[0]' },
    { name: 'a DNS name with a space', options: { dnsNames: ['my host'] }, option: 'dnsNames[0]' },
    { name: 'a malformed IP address', options: { ipAddresses: ['300.1.1.1'] }, option: 'ipAddresses[0]' },
    { name: 'a bracketed IPv6 address', options: { ipAddresses: ['[::1]'] }, option: 'ipAddresses[0]' },
    {
      name: 'a server certificate without SANs',
      options: { dnsNames: [], ipAddresses: [] },
      option: 'dnsNames/ipAddresses',
    },
    { name: 'an unknown usage', options: { usage: 'serverAuth' as never }, option: 'usage' },
    { name: 'an empty organization', options: { organization: '' }, option: 'organization' },
    { name: 'a negative validity', options: { validityDays: -1 }, option: 'validityDays' },
    { name: 'a misspelt option', options: { ipAddress: ['127.0.0.1'] }, option: 'issueCertificate option "ipAddress"' },
    { name: 'a CA expired at `now`', options: { now: NOW + 101 * DAY_MS }, option: 'ca.certPem' },
  ];
  for (const { name, options, option } of rejections) {
    it(`rejects ${name}`, async () => {
      await assert.rejects(serverCertFactory(ca, options), (err: unknown) => {
        assert.ok(err instanceof PkiOptionsError, String(err));
        assert.equal(err.option, option);
        return true;
      });
    });
  }

  it('rejects a CA that is not a CA, a key that is not the CA key, and a key that is not PEM', async () => {
    const leaf = await serverCertFactory(ca);
    const other = await caFactory();
    const cases: [CertificateAuthority, string, RegExp][] = [
      [leaf, 'ca.certPem', /not a CA certificate/],
      [{ certPem: ca.certPem, keyPem: other.keyPem }, 'ca.keyPem', /does not belong/],
      [{ certPem: ca.certPem, keyPem: 'not a key' }, 'ca.keyPem', /not a valid unencrypted PEM private key/],
      [{ certPem: ca.keyPem, keyPem: ca.keyPem }, 'ca.certPem', /expected a PEM certificate/],
    ];
    for (const [badCa, option, message] of cases) {
      await assert.rejects(
        serverCertFactory(badCa),
        (err: unknown) => err instanceof PkiOptionsError && err.option === option && message.test(err.message),
      );
    }
  });
});

describe('caCertHash', () => {
  it('is sha256: and the hex SHA-256 of the DER SubjectPublicKeyInfo', async () => {
    const ca = await caFactory();
    const spki = new X509Certificate(ca.certPem).publicKey.export({ type: 'spki', format: 'der' });
    assert.equal(caCertHash(ca.certPem), `sha256:${createHash('sha256').update(spki).digest('hex')}`);
  });

  it("agrees with kubeadm's documented openssl pipeline", async () => {
    const { dir, cleanup } = tempDir('hash');
    try {
      const ca = await caFactory();
      const file = join(dir, 'ca.crt');
      writeFileSync(file, ca.certPem);
      // openssl x509 -pubkey -in ca.crt | openssl pkey -pubin -outform der | sha256sum
      const pubkey = execFileSync('openssl', ['x509', '-pubkey', '-noout', '-in', file]);
      const der = execFileSync('openssl', ['pkey', '-pubin', '-outform', 'der'], { input: pubkey });
      assert.equal(caCertHash(ca.certPem), `sha256:${createHash('sha256').update(der).digest('hex')}`);
    } finally {
      cleanup();
    }
  });

  it('differs between CAs and rejects what is not a certificate', async () => {
    const [a, b] = await Promise.all([caFactory(), caFactory()]);
    assert.notEqual(caCertHash(a.certPem), caCertHash(b.certPem));
    assert.throws(() => caCertHash(a.keyPem), PkiOptionsError);
  });
});
