/**
 * The PKI against real TLS clients: Node's `https.request` and the real `kubectl` (Go's TLS stack),
 * talking to a real `node:https` server on 127.0.0.1. Certificates are made at the wall-clock time,
 * since both clients check validity against it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { request, type RequestOptions } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import {
  ensureLocalPki,
  issueCertificate,
  type KubeconfigOptions,
  kubeconfigYaml,
  type LocalPki,
  PkiOptionsError,
  tlsServerOptions,
  writeKubeconfig,
} from '../../../lib/pki/index.ts';
import { caFactory, startHttps, tempDir, type TestHttpsServer } from './fixtures.ts';

const run = promisify(execFile);
const KUBECTL = '/usr/bin/kubectl';
const VERSION = { major: '1', minor: '32', gitVersion: 'v1.32.0' };
const TOKEN = 'abcdef.0123456789abcdef';

/** The parts of a parsed kubeconfig the assertions read. */
interface Kubeconfig {
  clusters: { name: string; cluster: Record<string, string> }[];
  users: { name: string; user: Record<string, string> }[];
}

/** GETs `url`; resolves with the status code, rejects with the TLS error. */
function get(url: string, options: RequestOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, ...options }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTPS with the local PKI', () => {
  const temp = tempDir('https');
  let pki: LocalPki;
  let server: TestHttpsServer;
  const seen: { path: string | undefined; authorization: string | undefined; clientSubject: string | undefined }[] = [];

  before(async () => {
    pki = await ensureLocalPki(join(temp.dir, 'pki'), { now: Date.now() });
    // Asks for (but does not require) a client certificate, to see what kubectl presents.
    const tls = { ...tlsServerOptions(pki), ca: pki.ca.certPem, requestCert: true, rejectUnauthorized: false };
    server = await startHttps(tls, (req, res) => {
      const socket = req.socket as TLSSocket;
      const peer = socket.authorized ? socket.getPeerCertificate() : undefined;
      seen.push({
        path: req.url,
        authorization: req.headers.authorization,
        clientSubject: peer?.subject ? `O=${String(peer.subject.O)},CN=${String(peer.subject.CN)}` : undefined,
      });
      if (req.method === 'GET' && req.url?.startsWith('/version')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(VERSION));
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      }
    });
  });
  after(async () => {
    await server?.close();
    temp.cleanup();
  });

  describe('node:https clients', () => {
    it('are served by a client that trusts only the CA, by IP and by name', async () => {
      assert.equal(await get(`${server.url}/version`, { ca: pki.ca.certPem }), 200);
      assert.equal(await get(`https://localhost:${server.port}/version`, { ca: pki.ca.certPem }), 200);
    });

    it('are refused by a client that does not trust the CA', async () => {
      // The server also sends the CA (it was given `ca` to check client certificates), hence either code.
      const untrusted = { code: /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN)$/ };
      await assert.rejects(get(`${server.url}/version`, {}), untrusted);
      const stranger = await caFactory(Date.now(), 1);
      await assert.rejects(get(`${server.url}/version`, { ca: stranger.certPem }), untrusted);
    });

    it('are refused for a host the certificate does not name', async () => {
      const other = await startHttps(
        {
          ...tlsServerOptions({
            server: await issueCertificate(pki.ca, {
              commonName: '127.0.0.1', // clients ignore the CN: only SANs count
              dnsNames: ['example.test'],
              usage: 'server',
              now: Date.now(),
              validityDays: 1,
            }),
          }),
        },
        (_req, res) => res.end(),
      );
      try {
        await assert.rejects(get(`${other.url}/`, { ca: pki.ca.certPem }), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
      } finally {
        await other.close();
      }
    });

    it('cannot negotiate below TLS 1.2', async () => {
      await assert.rejects(get(`${server.url}/version`, { ca: pki.ca.certPem, maxVersion: 'TLSv1.1' }));
    });
  });

  describe('kubectl', () => {
    const options = (overrides: Partial<KubeconfigOptions> = {}): KubeconfigOptions => ({
      clusterName: 'serverless-karmada',
      contextName: 'serverless-karmada',
      userName: 'admin',
      server: server.url,
      caCertPem: pki.ca.certPem,
      token: TOKEN,
      ...overrides,
    });
    const kubectl = (kubeconfig: string) =>
      run(KUBECTL, ['--kubeconfig', kubeconfig, '--cache-dir', join(temp.dir, 'cache'), 'version', '-o', 'json'], {
        timeout: 30_000,
        env: { PATH: process.env.PATH ?? '', HOME: temp.dir },
      });

    it('accepts the kubeconfig, verifies the server against the embedded CA and sends the bearer token', async () => {
      const file = join(temp.dir, 'kube', 'token.yaml');
      await writeKubeconfig(file, options());
      assert.equal(statSync(file).mode & 0o777, 0o600);

      seen.length = 0;
      const { stdout } = await kubectl(file);
      const version = JSON.parse(stdout) as { serverVersion?: typeof VERSION };
      assert.deepEqual(
        { major: version.serverVersion?.major, minor: version.serverVersion?.minor },
        { major: '1', minor: '32' },
      );
      assert.equal(version.serverVersion?.gitVersion, 'v1.32.0');
      const call = seen.find((s) => s.path?.startsWith('/version'));
      assert.equal(call?.authorization, `Bearer ${TOKEN}`);
    });

    it('authenticates with a client certificate the CA issued (CN = user, O = group)', async () => {
      const client = await issueCertificate(pki.ca, {
        commonName: 'system:karmada:agent:member1',
        organization: 'system:karmada:agents',
        usage: 'client',
        now: Date.now(),
        validityDays: 1,
      });
      const file = join(temp.dir, 'kube', 'cert.yaml');
      await writeKubeconfig(
        file,
        options({ token: undefined, clientCertPem: client.certPem, clientKeyPem: client.keyPem }),
      );

      seen.length = 0;
      await kubectl(file);
      const call = seen.find((s) => s.path?.startsWith('/version'));
      assert.equal(call?.authorization, undefined);
      assert.equal(call?.clientSubject, 'O=system:karmada:agents,CN=system:karmada:agent:member1');
    });

    it('refuses a server whose certificate another CA signed, without sending the token', async () => {
      const stranger = await caFactory(Date.now(), 1);
      const file = join(temp.dir, 'kube', 'stranger.yaml');
      await writeKubeconfig(file, options({ caCertPem: stranger.certPem }));

      seen.length = 0;
      await assert.rejects(kubectl(file), (err: Error & { stderr?: string }) => {
        assert.match(err.stderr ?? '', /certificate signed by unknown authority/);
        return true;
      });
      assert.deepEqual(seen, []);
    });
  });

  describe('kubeconfigYaml', () => {
    const base = (): KubeconfigOptions => ({
      clusterName: 'c1',
      contextName: 'ctx',
      userName: 'u1',
      server: 'https://127.0.0.1:6443',
      caCertPem: pki.ca.certPem,
      token: TOKEN,
      namespace: 'karmada-system',
    });

    it('renders apiVersion v1 Config with the CA, token, context and namespace', () => {
      const config = parse(kubeconfigYaml(base())) as Kubeconfig;
      assert.deepEqual(config, {
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'c1',
            cluster: {
              server: 'https://127.0.0.1:6443',
              'certificate-authority-data': Buffer.from(pki.ca.certPem).toString('base64'),
            },
          },
        ],
        users: [{ name: 'u1', user: { token: TOKEN } }],
        contexts: [{ name: 'ctx', context: { cluster: 'c1', user: 'u1', namespace: 'karmada-system' } }],
        'current-context': 'ctx',
        preferences: {},
      });
      const ca = Buffer.from(config.clusters[0]?.cluster['certificate-authority-data'] ?? '', 'base64').toString();
      assert.equal(new X509Certificate(ca).fingerprint256, new X509Certificate(pki.ca.certPem).fingerprint256);
    });

    it('keeps long base64 values on one line', () => {
      const line = kubeconfigYaml(base())
        .split('\n')
        .find((l) => l.includes('certificate-authority-data'));
      assert.match(line ?? '', /certificate-authority-data: [A-Za-z0-9+/=]{200,}$/);
    });

    it('renders client-certificate-data and client-key-data for a certificate user', async () => {
      const client = await issueCertificate(pki.ca, {
        commonName: 'u',
        usage: 'client',
        now: Date.now(),
        validityDays: 1,
      });
      const config = parse(
        kubeconfigYaml({ ...base(), token: undefined, clientCertPem: client.certPem, clientKeyPem: client.keyPem }),
      ) as Kubeconfig;
      assert.deepEqual(config.users[0]?.user, {
        'client-certificate-data': Buffer.from(client.certPem).toString('base64'),
        'client-key-data': Buffer.from(client.keyPem).toString('base64'),
      });
    });

    it('writes the file with mode 0600, even over a file that was readable by others', async () => {
      const file = join(temp.dir, 'loose.yaml');
      await writeKubeconfig(file, base());
      chmodSync(file, 0o644);
      await writeKubeconfig(file, base());
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(readFileSync(file, 'utf8'), kubeconfigYaml(base()));
    });

    const rejections: {
      name: string;
      overrides: Partial<KubeconfigOptions> & Record<string, unknown>;
      option: string;
    }[] = [
      { name: 'a plain http server', overrides: { server: 'http://127.0.0.1:6443' }, option: 'server' },
      { name: 'a server that is not a URL', overrides: { server: '127.0.0.1:6443' }, option: 'server' },
      { name: 'a CA that is not a certificate', overrides: { caCertPem: 'nope' }, option: 'caCertPem' },
      { name: 'no credential', overrides: { token: undefined }, option: 'token/clientCertPem' },
      { name: 'a token and a certificate', overrides: { clientCertPem: 'x' }, option: 'token/clientCertPem' },
      {
        name: 'a certificate without its key',
        overrides: { token: undefined, clientCertPem: 'x' },
        option: 'clientCertPem/clientKeyPem',
      },
      { name: 'a namespace that is not a DNS label', overrides: { namespace: 'Karmada_System' }, option: 'namespace' },
      { name: 'an empty context name', overrides: { contextName: '' }, option: 'contextName' },
      { name: 'a misspelt option', overrides: { namspace: 'x' }, option: 'kubeconfigYaml option "namspace"' },
    ];
    for (const { name, overrides, option } of rejections) {
      it(`rejects ${name}`, () => {
        assert.throws(
          () => kubeconfigYaml({ ...base(), ...overrides } as KubeconfigOptions),
          (err: unknown) => err instanceof PkiOptionsError && err.option === option,
        );
      });
    }

    it('rejects a client key that does not belong to the certificate', async () => {
      const [a, b] = await Promise.all(
        ['a', 'b'].map((cn) =>
          issueCertificate(pki.ca, { commonName: cn, usage: 'client', now: Date.now(), validityDays: 1 }),
        ),
      );
      assert.throws(
        () => kubeconfigYaml({ ...base(), token: undefined, clientCertPem: a!.certPem, clientKeyPem: b!.keyPem }),
        (err: unknown) => err instanceof PkiOptionsError && err.option === 'clientKeyPem',
      );
    });
  });
});
