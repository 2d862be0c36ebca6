/**
 * A request as kube-apiserver's authorization reads it (`requestinfo.go`): what the proxies authorize
 * before they forward a path to a member, whether or not this server would serve that path itself.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../lib/kube/base/errors.ts';
import { requestAttributes } from '../../../lib/kube/base/request-info.ts';
import type { RequestAttributes } from '../../../lib/kube/base/types.ts';

describe('requestAttributes', () => {
  const rows: { name: string; method?: string; path: string; query?: string; want: RequestAttributes }[] = [
    {
      name: 'a legacy watch path is a watch of the plural after the namespace, not a get of "watch"',
      path: '/api/v1/watch/namespaces/default/secrets',
      want: { verb: 'watch', group: '', resource: 'secrets', namespace: 'default' },
    },
    {
      name: 'a legacy watch path across namespaces',
      path: '/api/v1/watch/secrets',
      want: { verb: 'watch', group: '', resource: 'secrets' },
    },
    {
      name: 'a legacy watch path of one object, in a group',
      path: '/apis/apps/v1/watch/namespaces/ns/deployments/web',
      want: { verb: 'watch', group: 'apps', resource: 'deployments', namespace: 'ns', name: 'web' },
    },
    {
      name: 'a pod proxy path with a path of its own is the pods/proxy subresource',
      path: '/api/v1/namespaces/default/pods/web/proxy/metrics/x',
      want: { verb: 'get', group: '', resource: 'pods', subresource: 'proxy', namespace: 'default', name: 'web' },
    },
    {
      name: 'a service proxy path (with a port) is services/proxy, POST a create',
      method: 'POST',
      path: '/api/v1/namespaces/default/services/web:80/proxy/admin',
      want: {
        verb: 'create',
        group: '',
        resource: 'services',
        subresource: 'proxy',
        namespace: 'default',
        name: 'web:80',
      },
    },
    {
      name: 'a node proxy path is nodes/proxy',
      path: '/api/v1/nodes/n1/proxy/configz',
      want: { verb: 'get', group: '', resource: 'nodes', subresource: 'proxy', name: 'n1' },
    },
    {
      name: 'a legacy proxy path is the object’s proxy subresource',
      path: '/api/v1/proxy/namespaces/default/pods/web/anything',
      want: { verb: 'get', group: '', resource: 'pods', subresource: 'proxy', namespace: 'default', name: 'web' },
    },
    {
      name: 'exec by GET (websocket) is a get of pods/exec',
      path: '/api/v1/namespaces/default/pods/web/exec',
      query: 'command=sh&stdin=true',
      want: { verb: 'get', group: '', resource: 'pods', subresource: 'exec', namespace: 'default', name: 'web' },
    },
    {
      name: 'a collection is a list, or a watch for any watch value but 0 and false',
      path: '/api/v1/namespaces/default/pods',
      query: 'watch',
      want: { verb: 'watch', group: '', resource: 'pods', namespace: 'default' },
    },
    {
      name: 'watch=false is a list',
      path: '/api/v1/pods',
      query: 'watch=false',
      want: { verb: 'list', group: '', resource: 'pods' },
    },
    {
      name: 'DELETE of a collection is a deletecollection',
      method: 'DELETE',
      path: '/apis/apps/v1/namespaces/ns/deployments',
      want: { verb: 'deletecollection', group: 'apps', resource: 'deployments', namespace: 'ns' },
    },
    {
      name: 'a Namespace’s own status is its subresource',
      method: 'PUT',
      path: '/api/v1/namespaces/ns/status',
      want: { verb: 'update', group: '', resource: 'namespaces', subresource: 'status', namespace: 'ns', name: 'ns' },
    },
    {
      name: 'discovery of a group version is a non-resource path',
      path: '/apis/apps/v1',
      want: { verb: 'get', group: '', resource: '', path: '/apis/apps/v1' },
    },
    {
      name: '/api/v1 is a non-resource path',
      path: '/api/v1',
      want: { verb: 'get', group: '', resource: '', path: '/api/v1' },
    },
    {
      name: '/metrics is a non-resource path',
      path: '/metrics',
      want: { verb: 'get', group: '', resource: '', path: '/metrics' },
    },
    {
      name: 'a percent-encoded plural is read decoded, as the member decodes it',
      path: '/api/v1/namespaces/default/%73ecrets',
      want: { verb: 'list', group: '', resource: 'secrets', namespace: 'default' },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.deepEqual(
        requestAttributes(row.method ?? 'GET', row.path, new URLSearchParams(row.query ?? '')),
        row.want,
      );
    });
  }

  it('a legacy watch prefix naming nothing is refused (400), and so is a method with no verb (405)', () => {
    assert.throws(
      () => requestAttributes('GET', '/api/v1/watch', new URLSearchParams()),
      (e: unknown) => e instanceof ApiError && e.code === 400 && /unable to determine kind/.test(e.message),
    );
    assert.throws(
      () => requestAttributes('OPTIONS', '/api/v1/pods', new URLSearchParams()),
      (e: unknown) => e instanceof ApiError && e.code === 405,
    );
  });
});
