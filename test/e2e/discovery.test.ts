/**
 * kubectl 1.30+ asks `/api` and `/apis` for aggregated discovery first: against the local control
 * plane and a simulated member it reads discovery in those two requests, and lists exactly what the
 * legacy per-group-version documents name (preferred versions, subresources left out).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { e2ePlane } from '../support/e2e.ts';
import type { kubectlRunner } from '../support/kubectl.ts';

const plane = e2ePlane(['member1']);

for (const target of ['control plane', 'simulated member']) {
  describe(`kubectl discovery against the ${target}`, () => {
    let kubectl: ReturnType<typeof kubectlRunner>;
    before(async () => {
      const { kubectl: controlPlane, onMember } = await plane.started();
      kubectl = target === 'control plane' ? controlPlane : onMember.get('member1')!;
    });

    /** What the legacy documents say (`get --raw` does not ask for aggregated discovery). */
    async function legacy(): Promise<{ names: string[]; groupVersions: string[] }> {
      type List = { resources: { name: string }[] };
      const raw = async <T>(path: string) => JSON.parse(await kubectl.ok(['get', '--raw', path])) as T;
      const groups = await raw<{
        kind: string;
        groups: { name: string; versions: { groupVersion: string }[]; preferredVersion: { version: string } }[];
      }>('/apis');
      assert.equal(groups.kind, 'APIGroupList');
      // As client-go's ServerPreferredResources: each resource at its group's preferred version, or
      // at the first other version serving it (Works are v1alpha1 only; the group prefers v1alpha2).
      const names = new Set((await raw<List>('/api/v1')).resources.map((r) => r.name));
      for (const g of groups.groups) {
        const versions = g.versions.map((v) => v.groupVersion);
        const preferred = `${g.name}/${g.preferredVersion.version}`;
        for (const gv of [preferred, ...versions.filter((v) => v !== preferred)]) {
          for (const r of (await raw<List>(`/apis/${gv}`)).resources) names.add(`${r.name}.${g.name}`);
        }
      }
      return {
        names: [...names].filter((n) => !n.includes('/')).sort(),
        groupVersions: ['v1', ...groups.groups.flatMap((g) => g.versions.map((v) => v.groupVersion))].sort(),
      };
    }

    it('reads discovery in two requests and lists what the legacy documents name', async () => {
      const verbose = await kubectl.run(['api-resources', '-o', 'name', '-v=6']);
      assert.equal(verbose.code, 0, verbose.stderr);
      const gets = [...verbose.stderr.matchAll(/"?GET"? "?https:\/\/[^/\s]+(\/[^?\s"]*)/g)].map((m) => m[1]);
      assert.deepEqual(gets, ['/api', '/apis'], verbose.stderr);

      const expected = await legacy();
      assert.deepEqual(verbose.stdout.trim().split('\n').sort(), expected.names);
      const versions = (await kubectl.ok(['api-versions'])).trim().split('\n').sort();
      assert.deepEqual(versions, expected.groupVersions);

      const table = await kubectl.ok(['api-resources', '--api-group=apps']);
      assert.match(table, /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
    });
  });
}
