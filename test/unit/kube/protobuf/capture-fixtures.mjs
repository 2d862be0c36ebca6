#!/usr/bin/env node
/**
 * Captures the protobuf request bodies kubectl's typed commands send, as fixtures for decode.test.ts.
 *
 *   node test/unit/kube/protobuf/capture-fixtures.mjs          (needs `kubectl` and `openssl` on PATH)
 *
 * Runs a throwaway plain-HTTP API server on 127.0.0.1 that answers legacy discovery (/version, /api, /apis,
 * /api/v1, /apis/<group>/<version>) and records the body of every POST. For each case it
 *   1. runs the command with `--dry-run=client -o json` — kubectl prints the very object it would send, as JSON —
 *      and saves that as test/fixtures/protobuf/<name>.json (skipped for `auth whoami|can-i`, which have no
 *      client-side dry run: the test spells out their expected JSON);
 *   2. runs it for real and saves the `application/vnd.kubernetes.protobuf` POST body as <name>.bin, answering 201
 *      with the JSON from step 1 (or a canned review status) so kubectl exits cleanly.
 * Not run by the tests. Re-running regenerates every fixture (the TLS key pair is new each time).
 */
import { Buffer } from 'node:buffer';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = fileURLToPath(new URL('../../../fixtures/protobuf/', import.meta.url));
const KUBECTL = process.env.KUBECTL ?? 'kubectl';

// ---- discovery -------------------------------------------------------------------------------------------------

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const resource = (name, kind, namespaced, extra = {}) => ({
  name,
  singularName: kind.toLowerCase(),
  namespaced,
  kind,
  verbs: VERBS,
  ...extra,
});
const GROUPS = {
  v1: [
    resource('namespaces', 'Namespace', false, { shortNames: ['ns'] }),
    resource('configmaps', 'ConfigMap', true, { shortNames: ['cm'] }),
    resource('secrets', 'Secret', true),
    resource('serviceaccounts', 'ServiceAccount', true, { shortNames: ['sa'] }),
    resource('services', 'Service', true, { shortNames: ['svc'] }),
    resource('resourcequotas', 'ResourceQuota', true, { shortNames: ['quota'] }),
    resource('pods', 'Pod', true, { shortNames: ['po'] }),
    { name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] },
  ],
  'apps/v1': [resource('deployments', 'Deployment', true, { shortNames: ['deploy'] })],
  'batch/v1': [resource('jobs', 'Job', true), resource('cronjobs', 'CronJob', true, { shortNames: ['cj'] })],
  'rbac.authorization.k8s.io/v1': [
    resource('roles', 'Role', true),
    resource('clusterroles', 'ClusterRole', false),
    resource('rolebindings', 'RoleBinding', true),
    resource('clusterrolebindings', 'ClusterRoleBinding', false),
  ],
  'scheduling.k8s.io/v1': [resource('priorityclasses', 'PriorityClass', false, { shortNames: ['pc'] })],
  'policy/v1': [resource('poddisruptionbudgets', 'PodDisruptionBudget', true, { shortNames: ['pdb'] })],
  'networking.k8s.io/v1': [resource('ingresses', 'Ingress', true, { shortNames: ['ing'] })],
  'authentication.k8s.io/v1': [
    { name: 'selfsubjectreviews', singularName: '', namespaced: false, kind: 'SelfSubjectReview', verbs: ['create'] },
  ],
  'authorization.k8s.io/v1': [
    {
      name: 'selfsubjectaccessreviews',
      singularName: '',
      namespaced: false,
      kind: 'SelfSubjectAccessReview',
      verbs: ['create'],
    },
    {
      name: 'selfsubjectrulesreviews',
      singularName: '',
      namespaced: false,
      kind: 'SelfSubjectRulesReview',
      verbs: ['create'],
    },
  ],
};

function discovery(path) {
  if (path === '/version') {
    return { major: '1', minor: '32', gitVersion: 'v1.32.4', platform: 'linux/amd64' };
  }
  if (path === '/api') {
    return {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
    };
  }
  if (path === '/apis') {
    const groups = Object.keys(GROUPS)
      .filter((gv) => gv.includes('/'))
      .map((gv) => {
        const [group, version] = gv.split('/');
        const v = { groupVersion: gv, version };
        return { name: group, versions: [v], preferredVersion: v };
      });
    return { kind: 'APIGroupList', apiVersion: 'v1', groups };
  }
  const gv = path === '/api/v1' ? 'v1' : path.startsWith('/apis/') ? path.slice('/apis/'.length) : undefined;
  if (gv && GROUPS[gv]) return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv, resources: GROUPS[gv] };
  return undefined;
}

// ---- the capture server ----------------------------------------------------------------------------------------

let posts = [];
let respondWith = {};

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url, 'http://localhost');
    const send = (status, obj) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(obj));
    };
    if (req.method === 'GET') {
      const doc = discovery(url.pathname);
      if (doc) return send(200, doc);
      return send(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
    }
    if (req.method === 'POST') {
      posts.push({ url: req.url, contentType: req.headers['content-type'], body: Buffer.concat(chunks) });
      return send(201, respondWith);
    }
    send(405, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'MethodNotAllowed', code: 405 });
  });
});

// ---- cases -----------------------------------------------------------------------------------------------------

const work = mkdtempSync(join(tmpdir(), 'kubectl-protobuf-'));
const kubeconfig = join(work, 'kubeconfig');
writeFileSync(kubeconfig, '');
const cert = join(work, 'tls.crt');
const key = join(work, 'tls.key');
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '3650',
    '-subj',
    '/CN=web.example.com',
  ],
  { stdio: 'ignore' },
);
const binaryFile = join(work, 'logo.bin');
writeFileSync(binaryFile, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80]));
const textFile = join(work, 'app.properties');
writeFileSync(textFile, 'color=blue\nsize=large\n');

/** [name, kubectl args, response for the real run when there is no client-side dry run] */
const CASES = [
  ['namespace', ['create', 'namespace', 'team-a']],
  [
    'configmap',
    [
      'create',
      'configmap',
      'app-config',
      '-n',
      'prod',
      '--from-literal=mode=production',
      '--from-literal=empty=',
      `--from-file=app.properties=${textFile}`,
      `--from-file=logo.bin=${binaryFile}`,
    ],
  ],
  [
    'secret-generic',
    ['create', 'secret', 'generic', 'creds', '--from-literal=user=admin', '--from-literal=pass=s3cr3t'],
  ],
  [
    'secret-docker-registry',
    [
      'create',
      'secret',
      'docker-registry',
      'regcred',
      '--docker-server=registry.example.com',
      '--docker-username=bob',
      '--docker-password=hunter2',
      '--docker-email=bob@example.com',
    ],
  ],
  ['secret-tls', ['create', 'secret', 'tls', 'web-tls', `--cert=${cert}`, `--key=${key}`]],
  ['serviceaccount', ['create', 'serviceaccount', 'app', '-n', 'prod']],
  ['deployment', ['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=3', '--port=80']],
  ['deployment-multi', ['create', 'deployment', 'multi', '--image=nginx:1.27', '--image=busybox:1.36', '--replicas=0']],
  ['job', ['create', 'job', 'once', '--image=busybox', '--', 'echo', 'hello']],
  ['cronjob', ['create', 'cronjob', 'nightly', '--image=busybox', '--schedule=0 2 * * *', '--', 'echo', 'hi']],
  ['service-clusterip', ['create', 'service', 'clusterip', 'web', '--tcp=80:8080', '--tcp=443:https']],
  ['service-clusterip-headless', ['create', 'service', 'clusterip', 'headless', '--clusterip=None']],
  ['service-nodeport', ['create', 'service', 'nodeport', 'web', '--tcp=80:8080', '--node-port=30080']],
  ['service-loadbalancer', ['create', 'service', 'loadbalancer', 'web', '--tcp=443:8443']],
  ['service-externalname', ['create', 'service', 'externalname', 'db', '--external-name=db.example.com']],
  ['role', ['create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods', '--resource=deployments.apps']],
  [
    'clusterrole',
    ['create', 'clusterrole', 'metrics', '--verb=get', '--non-resource-url=/metrics', '--non-resource-url=/healthz'],
  ],
  [
    'clusterrole-aggregate',
    ['create', 'clusterrole', 'monitoring', '--aggregation-rule=rbac.example.com/aggregate=true'],
  ],
  [
    'rolebinding',
    ['create', 'rolebinding', 'rb', '--clusterrole=view', '--user=alice', '--serviceaccount=default:app'],
  ],
  ['clusterrolebinding', ['create', 'clusterrolebinding', 'crb', '--clusterrole=cluster-admin', '--group=admins']],
  ['quota', ['create', 'quota', 'q', '--hard=cpu=2,memory=1Gi,pods=10', '--scopes=NotTerminating']],
  [
    'priorityclass',
    ['create', 'priorityclass', 'high', '--value=1000', '--description=x', '--preemption-policy=Never'],
  ],
  ['pdb', ['create', 'pdb', 'web', '--selector=app=web', '--min-available=1']],
  ['pdb-percent', ['create', 'pdb', 'api', '--selector=app=api,tier in (backend)', '--max-unavailable=25%']],
  [
    'ingress',
    [
      'create',
      'ingress',
      'web',
      '--class=nginx',
      '--rule=example.com/*=web:80,tls=web-tls',
      '--rule=example.com/api=api:http',
      '--default-backend=fallback:8080',
      '--annotation=nginx.ingress.kubernetes.io/rewrite-target=/',
    ],
  ],
  [
    'auth-whoami',
    ['auth', 'whoami'],
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
      metadata: {},
      status: { userInfo: { username: 'alice', groups: ['system:authenticated'] } },
    },
  ],
  [
    'auth-can-i',
    ['auth', 'can-i', 'delete', 'deployments', '-n', 'prod'],
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: {},
      status: { allowed: true },
    },
  ],
  [
    'auth-can-i-subresource',
    ['auth', 'can-i', 'get', 'pods/web-0', '--subresource=log', '-n', 'prod'],
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: {},
      status: { allowed: true },
    },
  ],
  [
    'auth-can-i-nonresource',
    ['auth', 'can-i', 'get', '/healthz'],
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: {},
      status: { allowed: true },
    },
  ],
  [
    'auth-can-i-list',
    ['auth', 'can-i', '--list', '-n', 'prod'],
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: {},
      spec: {},
      status: { resourceRules: [], nonResourceRules: [], incomplete: false },
    },
  ],
];

/** Runs kubectl with `flags` added before any `--` (after it, they would become the container's command). */
function kubectl(args, port, flags = []) {
  const all = [...flags, `--server=http://127.0.0.1:${port}`, '--request-timeout=10s'];
  const dash = args.indexOf('--');
  const argv = dash < 0 ? [...args, ...all] : [...args.slice(0, dash), ...all, ...args.slice(dash)];
  return new Promise((resolve, reject) => {
    const child = spawn(KUBECTL, argv, {
      env: { ...process.env, KUBECONFIG: kubeconfig, HOME: work },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`kubectl ${args.join(' ')} exited ${code}: ${stderr || stdout}`));
    });
  });
}

await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();
mkdirSync(OUT, { recursive: true });
try {
  for (const [name, args, canned] of CASES) {
    if (canned) {
      respondWith = canned;
    } else {
      posts = [];
      const json = await kubectl(args, port, ['--dry-run=client', '-o', 'json']);
      if (posts.length) throw new Error(`${name}: --dry-run=client sent ${posts.length} request bodies`);
      respondWith = JSON.parse(json);
      writeFileSync(join(OUT, `${name}.json`), `${JSON.stringify(respondWith, null, 2)}\n`);
    }
    posts = [];
    await kubectl(args, port);
    if (posts.length !== 1) throw new Error(`${name}: expected one POST, got ${posts.length}`);
    const [post] = posts;
    if (post.contentType !== 'application/vnd.kubernetes.protobuf') {
      throw new Error(`${name}: POST ${post.url} was ${post.contentType}, not protobuf`);
    }
    writeFileSync(join(OUT, `${name}.bin`), post.body);
    console.log(`${name}: POST ${post.url} (${post.body.length} bytes)`);
  }
} finally {
  server.close();
  rmSync(work, { recursive: true, force: true });
}
