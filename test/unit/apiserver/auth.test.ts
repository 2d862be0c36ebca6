/**
 * The authorization model: administrators may do anything; viewers read as Kubernetes' `view` role
 * lets them (no Secrets, no exec, attach, port-forward or proxy into workloads and nodes); every
 * authenticated user may read discovery, and only administrators other non-resource paths (which
 * only the proxies forward, to a member).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADMIN_GROUP, authorize, VIEWER_GROUP } from '../../../lib/apiserver/auth.ts';
import type { RequestAttributes } from '../../../lib/kube/base/types.ts';

const admin = { name: 'admin', groups: [ADMIN_GROUP, 'system:authenticated'] };
const viewer = { name: 'alice', groups: [VIEWER_GROUP, 'system:authenticated'] };
const nobody = { name: 'bob', groups: ['system:authenticated'] };

const pod = (verb: RequestAttributes['verb'], subresource?: string): RequestAttributes => ({
  verb,
  group: '',
  resource: 'pods',
  namespace: 'default',
  name: 'web',
  ...(subresource ? { subresource } : {}),
});
const path = (p: string, verb: RequestAttributes['verb'] = 'get'): RequestAttributes => ({
  verb,
  group: '',
  resource: '',
  path: p,
});

describe('authorize', () => {
  const rows: { name: string; user: typeof admin; attrs: RequestAttributes; want: true | RegExp }[] = [
    { name: 'a viewer reads pods', user: viewer, attrs: pod('get'), want: true },
    { name: 'a viewer reads a pod’s log', user: viewer, attrs: pod('get', 'log'), want: true },
    { name: 'a viewer reads a pod’s status', user: viewer, attrs: pod('get', 'status'), want: true },
    {
      name: 'a viewer watches no Secrets',
      user: viewer,
      attrs: { verb: 'watch', group: '', resource: 'secrets', namespace: 'default' },
      want: /viewers may not read secrets/,
    },
    {
      name: 'a viewer may not exec into a pod, even by GET',
      user: viewer,
      attrs: pod('get', 'exec'),
      want: /not pods\/exec/,
    },
    { name: 'nor attach to one', user: viewer, attrs: pod('create', 'attach'), want: /not pods\/attach/ },
    { name: 'nor port-forward to one', user: viewer, attrs: pod('get', 'portforward'), want: /not pods\/portforward/ },
    { name: 'nor proxy to one', user: viewer, attrs: pod('get', 'proxy'), want: /not pods\/proxy/ },
    {
      name: 'nor proxy to a node',
      user: viewer,
      attrs: { verb: 'get', group: '', resource: 'nodes', name: 'n1', subresource: 'proxy' },
      want: /not nodes\/proxy/,
    },
    {
      name: 'a viewer may use the cluster proxy itself (what it carries is authorized on its own)',
      user: viewer,
      attrs: { verb: 'get', group: 'cluster.karmada.io', resource: 'clusters', name: 'm1', subresource: 'proxy' },
      want: true,
    },
    { name: 'a viewer may not delete', user: viewer, attrs: pod('delete'), want: /viewers may only get and list/ },
    { name: 'an administrator may exec', user: admin, attrs: pod('create', 'exec'), want: true },
    { name: 'anyone authenticated reads /apis', user: nobody, attrs: path('/apis'), want: true },
    { name: 'a viewer reads /api/v1', user: viewer, attrs: path('/api/v1'), want: true },
    { name: 'a viewer reads /version', user: viewer, attrs: path('/version'), want: true },
    { name: 'a viewer reads /readyz', user: viewer, attrs: path('/readyz'), want: true },
    { name: 'a viewer reads OpenAPI', user: viewer, attrs: path('/openapi/v3/apis/apps/v1'), want: true },
    {
      name: 'a viewer may not read /metrics',
      user: viewer,
      attrs: path('/metrics'),
      want: /only discovery, version, health and OpenAPI paths/,
    },
    { name: 'nor /logs', user: viewer, attrs: path('/logs/kube-apiserver.log'), want: /only discovery/ },
    { name: 'nor a health check’s details', user: viewer, attrs: path('/healthz/etcd'), want: /only discovery/ },
    { name: 'nor the path list at /', user: viewer, attrs: path('/'), want: /only discovery/ },
    { name: 'nor write to a discovery path', user: viewer, attrs: path('/apis', 'create'), want: /only discovery/ },
    { name: 'an administrator reads /metrics', user: admin, attrs: path('/metrics'), want: true },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const got = authorize(row.user, row.attrs);
      if (row.want === true) assert.equal(got, true);
      else assert.match(String(got), row.want);
    });
  }
});
