import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type CertificateAuthority,
  ensureLocalPki,
  type IssuedCertificate,
  LOCAL_PKI_FILES,
  LOCAL_SERVER_VALIDITY_DAYS,
  PkiError,
  PkiFileError,
  PkiOptionsError,
  serverCertificateRenewal,
  tlsServerOptions,
} from '../../../lib/pki/index.ts';
import { caFactory, NOW, serverCertFactory, tempDir } from './fixtures.ts';

const DAY_MS = 86_400_000;
const HOSTS = ['127.0.0.1', 'localhost'];

describe('serverCertificateRenewal', () => {
  let ca: CertificateAuthority;
  let otherCa: CertificateAuthority;
  let server: IssuedCertificate;
  before(async () => {
    [ca, otherCa] = await Promise.all([caFactory(), caFactory()]);
    server = await serverCertFactory(ca, {
      dnsNames: ['localhost', '*.example.com'],
      ipAddresses: ['127.0.0.1', '::1'],
    });
  });

  const rows: {
    name: string;
    now?: number;
    hosts?: string[];
    server?: () => Promise<IssuedCertificate>;
    reason: RegExp | undefined;
  }[] = [
    { name: 'keeps a fresh certificate that covers the hosts', reason: undefined },
    {
      name: 'keeps it 31 days before expiry',
      now: NOW + (LOCAL_SERVER_VALIDITY_DAYS - 31) * DAY_MS,
      reason: undefined,
    },
    {
      name: 'renews it 29 days before expiry',
      now: NOW + (LOCAL_SERVER_VALIDITY_DAYS - 29) * DAY_MS,
      reason: /expires on 2027-11-21T00:00:00\.000Z, within 30 days/,
    },
    { name: 'renews it once expired', now: NOW + 400 * DAY_MS, reason: /expired on 2027-11-21/ },
    { name: 'renews it if not valid yet (clock went back)', now: NOW - DAY_MS, reason: /not valid before/ },
    {
      name: 'renews it if a requested IP is missing',
      hosts: [...HOSTS, '10.0.0.5'],
      reason: /lacks host 10\.0\.0\.5$/,
    },
    { name: 'renews it if a requested name is missing', hosts: ['api.local'], reason: /lacks host api\.local$/ },
    { name: 'matches IPv6 addresses however written', hosts: ['0:0:0:0:0:0:0:1'], reason: undefined },
    { name: 'matches DNS names whatever their case', hosts: ['LocalHost'], reason: undefined },
    { name: 'takes a wildcard SAN only for itself', hosts: ['a.example.com'], reason: /lacks host a\.example\.com/ },
    { name: 'keeps it for the wildcard itself', hosts: ['*.example.com'], reason: undefined },
    {
      name: 'renews a certificate another CA signed',
      server: () => serverCertFactory(otherCa),
      reason: /not signed by the CA in ca\.crt/,
    },
    {
      name: 'renews a certificate whose key was replaced',
      server: async () => ({ certPem: server.certPem, keyPem: (await serverCertFactory(ca)).keyPem }),
      reason: /server\.key does not match server\.crt/,
    },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      const subject = row.server ? await row.server() : server;
      const reason = serverCertificateRenewal(subject, ca.certPem, row.hosts ?? HOSTS, row.now ?? NOW);
      if (row.reason === undefined) assert.equal(reason, undefined);
      else assert.match(reason ?? '(kept)', row.reason);
    });
  }

  it('throws on PEM that does not parse, naming the part', () => {
    assert.throws(
      () => serverCertificateRenewal({ certPem: 'garbage', keyPem: server.keyPem }, ca.certPem, HOSTS, NOW),
      (err: unknown) => err instanceof PkiOptionsError && err.option === 'server.certPem',
    );
  });
});

describe('ensureLocalPki', () => {
  const temp = tempDir('local');
  const dir = join(temp.dir, 'pki');
  const file = (name: string) => join(dir, name);
  after(temp.cleanup);

  it('creates the CA and the server certificate on the first call, keys 0600 in a 0700 directory', async () => {
    const pki = await ensureLocalPki(dir, { now: NOW });
    assert.equal(pki.created, true);
    assert.equal(pki.reissueReason, undefined);
    assert.equal(pki.dir, dir);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(file(LOCAL_PKI_FILES.caKey)).mode & 0o777, 0o600);
    assert.equal(statSync(file(LOCAL_PKI_FILES.serverKey)).mode & 0o777, 0o600);
    assert.equal(readFileSync(file(LOCAL_PKI_FILES.caCert), 'utf8'), pki.ca.certPem);
    assert.equal(readFileSync(file(LOCAL_PKI_FILES.caKey), 'utf8'), pki.ca.keyPem);
    assert.equal(readFileSync(file(LOCAL_PKI_FILES.serverCert), 'utf8'), pki.server.certPem);
    assert.equal(readFileSync(file(LOCAL_PKI_FILES.serverKey), 'utf8'), pki.server.keyPem);

    const server = new X509Certificate(pki.server.certPem);
    const ca = new X509Certificate(pki.ca.certPem);
    assert.ok(server.checkIssued(ca) && server.verify(ca.publicKey));
    assert.equal(server.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1');
    assert.deepEqual(tlsServerOptions(pki), {
      cert: pki.server.certPem,
      key: pki.server.keyPem,
      minVersion: 'TLSv1.2',
    });
  });

  it('loads the same CA and server certificate on the next call', async () => {
    const first = await ensureLocalPki(dir, { now: NOW });
    const again = await ensureLocalPki(dir, { now: NOW + DAY_MS });
    assert.equal(again.created, false);
    assert.equal(again.reissueReason, undefined);
    assert.deepEqual(again.ca, first.ca);
    assert.deepEqual(again.server, first.server);
  });

  it('re-issues only the server certificate for a new host, keeping the CA', async () => {
    const before = await ensureLocalPki(dir, { now: NOW });
    const pki = await ensureLocalPki(dir, { now: NOW, hosts: ['10.0.0.5', 'Karmada.Local'] });
    assert.equal(pki.created, false);
    assert.match(pki.reissueReason ?? '', /lacks host 10\.0\.0\.5, karmada\.local/);
    assert.deepEqual(pki.ca, before.ca);
    assert.notEqual(pki.server.certPem, before.server.certPem);
    assert.equal(
      new X509Certificate(pki.server.certPem).subjectAltName,
      'DNS:localhost, DNS:karmada.local, IP Address:127.0.0.1, IP Address:10.0.0.5',
    );
    assert.equal(readFileSync(file(LOCAL_PKI_FILES.serverCert), 'utf8'), pki.server.certPem);
    const kept = await ensureLocalPki(dir, { now: NOW, hosts: ['10.0.0.5'] });
    assert.equal(kept.reissueReason, undefined, 'a certificate covering more hosts than asked is kept');
  });

  it('re-issues the server certificate when it expires within 30 days, not the CA', async () => {
    const before = await ensureLocalPki(dir, { now: NOW });
    const later = NOW + (LOCAL_SERVER_VALIDITY_DAYS - 10) * DAY_MS;
    const pki = await ensureLocalPki(dir, { now: later });
    assert.match(pki.reissueReason ?? '', /within 30 days/);
    assert.deepEqual(pki.ca, before.ca);
    assert.equal(
      Date.parse(new X509Certificate(pki.server.certPem).validTo),
      later + LOCAL_SERVER_VALIDITY_DAYS * DAY_MS,
    );
  });

  it('issues a server certificate if its files were deleted', async () => {
    const before = await ensureLocalPki(dir, { now: NOW });
    rmSync(file(LOCAL_PKI_FILES.serverKey));
    const pki = await ensureLocalPki(dir, { now: NOW });
    assert.equal(pki.reissueReason, 'server.key is missing');
    assert.deepEqual(pki.ca, before.ca);
    assert.equal(statSync(file(LOCAL_PKI_FILES.serverKey)).mode & 0o777, 0o600);
  });

  it('tightens the modes of a directory that existed', async () => {
    const { dir: loose, cleanup } = tempDir('modes');
    try {
      chmodSync(loose, 0o755);
      await ensureLocalPki(loose, { now: NOW });
      assert.equal(statSync(loose).mode & 0o777, 0o700);
    } finally {
      cleanup();
    }
  });

  const corruptions: { name: string; damage: (dir: string) => void; file: string; problem: RegExp }[] = [
    {
      name: 'a CA certificate that is not PEM',
      damage: (d) => writeFileSync(join(d, 'ca.crt'), 'garbage'),
      file: 'ca.crt',
      problem: /expected a PEM certificate/,
    },
    {
      name: 'a truncated CA certificate',
      damage: (d) => writeFileSync(join(d, 'ca.crt'), readFileSync(join(d, 'ca.crt'), 'utf8').slice(0, 200)),
      file: 'ca.crt',
      problem: /not a valid PEM certificate/,
    },
    {
      name: 'a CA key that is not PEM',
      damage: (d) => writeFileSync(join(d, 'ca.key'), 'garbage'),
      file: 'ca.key',
      problem: /not a valid unencrypted PEM private key/,
    },
    {
      name: 'a CA key of another CA',
      damage: (d) => writeFileSync(join(d, 'ca.key'), readFileSync(join(d, 'server.key'))),
      file: 'ca.key',
      problem: /does not belong to the CA certificate/,
    },
    {
      name: 'a missing CA key',
      damage: (d) => rmSync(join(d, 'ca.key')),
      file: 'ca.key',
      problem: /missing, while ca\.crt exists/,
    },
    {
      name: 'a missing CA certificate',
      damage: (d) => rmSync(join(d, 'ca.crt')),
      file: 'ca.crt',
      problem: /missing, while ca\.key exists/,
    },
    {
      name: 'a server certificate that is not PEM',
      damage: (d) =>
        writeFileSync(join(d, 'server.crt'), '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'),
      file: 'server.crt',
      problem: /not a valid PEM certificate/,
    },
    {
      name: 'a server key that is not PEM',
      damage: (d) => writeFileSync(join(d, 'server.key'), ''),
      file: 'server.key',
      problem: /not a valid unencrypted PEM private key/,
    },
  ];
  for (const { name, damage, file: damaged, problem } of corruptions) {
    it(`fails clearly on ${name}, naming the file and how to recover`, async () => {
      const { dir: broken, cleanup } = tempDir('corrupt');
      try {
        await ensureLocalPki(broken, { now: NOW });
        damage(broken);
        await assert.rejects(ensureLocalPki(broken, { now: NOW }), (err: unknown) => {
          assert.ok(err instanceof PkiFileError, String(err));
          assert.ok(err instanceof PkiError);
          assert.equal(err.file, join(broken, damaged));
          assert.equal(err.dir, broken);
          assert.match(err.message, problem);
          assert.ok(err.message.startsWith(`${join(broken, damaged)}: `), err.message);
          assert.match(err.message, new RegExp(`To recover, delete the directory ${broken}`));
          return true;
        });
      } finally {
        cleanup();
      }
    });
  }

  it('refuses a CA that has expired, naming ca.crt', async () => {
    const { dir: old, cleanup } = tempDir('expired');
    try {
      await ensureLocalPki(old, { now: NOW });
      await assert.rejects(
        ensureLocalPki(old, { now: NOW + 3651 * DAY_MS }),
        (err: unknown) =>
          err instanceof PkiFileError && err.file === join(old, 'ca.crt') && /expired/.test(err.message),
      );
    } finally {
      cleanup();
    }
  });

  for (const [name, options, option] of [
    ['a host that is neither IP nor DNS name', { now: NOW, hosts: ['https://x'] }, 'hosts[0]'],
    ['a misspelt option', { now: NOW, host: ['x'] }, 'ensureLocalPki option "host"'],
    ['a missing time', { hosts: [] }, 'now'],
  ] as const) {
    it(`rejects ${name} before touching the disk`, async () => {
      const { dir: unused, cleanup } = tempDir('options');
      try {
        const target = join(unused, 'pki');
        await assert.rejects(
          ensureLocalPki(target, options as never),
          (err: unknown) => err instanceof PkiOptionsError && err.option === option,
        );
        assert.throws(() => statSync(target), /ENOENT/);
      } finally {
        cleanup();
      }
    });
  }

  it('writes no temporary files next to the keys', async () => {
    const { dir: clean, cleanup } = tempDir('clean');
    try {
      mkdirSync(join(clean, 'pki'));
      await ensureLocalPki(join(clean, 'pki'), { now: NOW, hosts: ['10.1.1.1'] });
      await ensureLocalPki(join(clean, 'pki'), { now: NOW, hosts: ['10.2.2.2'] });
      assert.deepEqual(readdirSync(join(clean, 'pki')).sort(), ['ca.crt', 'ca.key', 'server.crt', 'server.key']);
    } finally {
      cleanup();
    }
  });
});
