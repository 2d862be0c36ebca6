/**
 * ImageOverrider and the image reference parser (Karmada v1.15.9 `imageoverride.go`,
 * `imageoverride_test.go`, `pkg/util/imageparser`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyOverrides,
  type ImageOverrider,
  overrideImage,
  parseImage,
  splitHostname,
} from '../../../../lib/core/overrides/index.ts';
import type { KubeObject } from '../../../../lib/core/model/types.ts';
import { deployment, dig, images, job, pod, rule, workload } from './fixtures.ts';

const DIGEST = 'sha256:dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c';
const DIGEST2 = 'sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c';

describe('parseImage (imageparser.Parse over distribution/reference, parser_test.go)', () => {
  const cases: [string, string, string, string, string, string][] = [
    // name, image, hostname, repository, tag, digest
    ['simple', 'pause', '', 'pause', '', ''],
    ['repository', 'subpath/imagename:v1.0.0', '', 'subpath/imagename', 'v1.0.0', ''],
    ['normal', 'fictional.registry.example/imagename:v1.0.0', 'fictional.registry.example', 'imagename', 'v1.0.0', ''],
    [
      'hostname with port',
      'fictional.registry.example:10443/subpath/imagename:v1.0.0',
      'fictional.registry.example:10443',
      'subpath/imagename',
      'v1.0.0',
      '',
    ],
    [
      'digest',
      `fictional.registry.example:10443/subpath/imagename@${DIGEST2}`,
      'fictional.registry.example:10443',
      'subpath/imagename',
      '',
      DIGEST2,
    ],
    ['localhost is a registry', 'localhost/app:1', 'localhost', 'app', '1', ''],
    ['no docker.io normalisation', 'library/nginx', '', 'library/nginx', '', ''],
    ['IP and port', '10.10.10.10:10443/subpath/imagename', '10.10.10.10:10443', 'subpath/imagename', '', ''],
  ];
  for (const [name, image, hostname, repository, tag, digest] of cases) {
    it(name, () => {
      const parsed = parseImage(image);
      assert.ok(parsed.ok);
      assert.deepEqual({ ...parsed.image }, { hostname, repository, tag, digest });
      assert.equal(parsed.image.toString(), image, 'full name unchanged');
    });
  }

  it('tag + digest: the digest is dropped (reference.Tagged wins)', () => {
    const parsed = parseImage(`nginx:1.25@${DIGEST}`);
    assert.ok(parsed.ok);
    assert.equal(parsed.image.toString(), 'nginx:1.25');
  });

  const errors: [string, string, string][] = [
    ['empty', '', 'repository name must have at least one component'],
    ['uppercase', 'Nginx:1', 'repository name must be lowercase'],
    ['invalid format', 'nginx:', 'invalid reference format'],
    ['unsupported digest algorithm', `nginx@md5:${'a'.repeat(32)}`, 'unsupported digest algorithm'],
    ['digest of the wrong length', `nginx@sha256:${'a'.repeat(40)}`, 'invalid checksum digest length'],
    ['digest with uppercase hex', `nginx@sha256:${'A'.repeat(64)}`, 'invalid checksum digest format'],
    ['name longer than 255', `${'a'.repeat(256)}:1`, 'repository name must not be more than 255 characters'],
  ];
  for (const [name, image, error] of errors) {
    it(`error: ${name}`, () => assert.deepEqual(parseImage(image), { ok: false, error }));
  }

  it('splitHostname (TestSplitHostname)', () => {
    assert.deepEqual(splitHostname(''), { hostname: '', repository: '' });
    assert.deepEqual(splitHostname('subpath/imagename'), { hostname: '', repository: 'subpath/imagename' });
    assert.deepEqual(splitHostname('fictional.registry.example/subpath/imagename'), {
      hostname: 'fictional.registry.example',
      repository: 'subpath/imagename',
    });
  });
});

describe('overrideImage: component × operator (TestParseJSONPatchesByImageOverrider, §4.9)', () => {
  const base = 'fictional.registry.example/imagename:v1.0.0';
  const cases: [string, string, ImageOverrider, string][] = [
    [
      'Registry add appends to the hostname',
      base,
      { component: 'Registry', operator: 'add', value: '.test' },
      'fictional.registry.example.test/imagename:v1.0.0',
    ],
    [
      'Registry add to an image without registry',
      'perl:5.34.0',
      { component: 'Registry', operator: 'add', value: 'registry.k8s.io' },
      'registry.k8s.io/perl:5.34.0',
    ],
    [
      'Registry replace',
      base,
      { component: 'Registry', operator: 'replace', value: 'fictional.registry.us' },
      'fictional.registry.us/imagename:v1.0.0',
    ],
    [
      'Registry remove ignores the value',
      base,
      { component: 'Registry', operator: 'remove', value: 'fictional.registry.us' },
      'imagename:v1.0.0',
    ],
    [
      'Repository add appends',
      base,
      { component: 'Repository', operator: 'add', value: '/nginx' },
      'fictional.registry.example/imagename/nginx:v1.0.0',
    ],
    [
      'Repository replace',
      base,
      { component: 'Repository', operator: 'replace', value: 'nginx' },
      'fictional.registry.example/nginx:v1.0.0',
    ],
    [
      'Repository remove leaves "host/:tag"',
      base,
      { component: 'Repository', operator: 'remove', value: 'nginx' },
      'fictional.registry.example/:v1.0.0',
    ],
    ['Tag add of a digest is a silent no-op (§4.9)', base, { component: 'Tag', operator: 'add', value: DIGEST }, base],
    [
      'Tag add appends to the tag',
      base,
      { component: 'Tag', operator: 'add', value: '-debug' },
      'fictional.registry.example/imagename:v1.0.0-debug',
    ],
    [
      'Tag replace with a digest switches to the digest',
      base,
      { component: 'Tag', operator: 'replace', value: DIGEST },
      `fictional.registry.example/imagename@${DIGEST}`,
    ],
    [
      'Tag replace with a tag',
      `nginx@${DIGEST}`,
      { component: 'Tag', operator: 'replace', value: '1.25' },
      'nginx:1.25',
    ],
    [
      'Tag replace with neither tag nor digest is a no-op',
      base,
      { component: 'Tag', operator: 'replace', value: 'not a tag' },
      base,
    ],
    [
      'Tag remove drops the tag',
      base,
      { component: 'Tag', operator: 'remove', value: DIGEST },
      'fictional.registry.example/imagename',
    ],
    [
      'Tag remove drops the digest when there is no tag',
      `nginx@${DIGEST}`,
      { component: 'Tag', operator: 'remove' },
      'nginx',
    ],
    [
      'Tag add to a digest appends to the digest string (invalid ⇒ no-op)',
      `nginx@${DIGEST}`,
      { component: 'Tag', operator: 'add', value: 'x' },
      `nginx@${DIGEST}`,
    ],
    [
      'tag+digest image loses its digest under any override (§4.9)',
      `nginx:1.25@${DIGEST}`,
      { component: 'Registry', operator: 'replace', value: 'r.example' },
      'r.example/nginx:1.25',
    ],
  ];
  for (const [name, image, overrider, want] of cases) {
    it(name, () => assert.equal(overrideImage(image, overrider), want));
  }
});

describe('imageOverrider on workloads (default paths and predicate paths)', () => {
  const replaceRepo: ImageOverrider = { component: 'Repository', operator: 'replace', value: 'nginx' };
  const cases: [string, KubeObject, ImageOverrider, unknown[]][] = [
    [
      'Deployment: every container, empty predicate',
      deployment(),
      replaceRepo,
      ['fictional.registry.example/nginx:v1.0.0'],
    ],
    [
      'Deployment with two containers: both rewritten',
      deployment(['fictional.registry.example/imagename:v1.0.0', 'registry.k8s.io/nginx-slim:0.8']),
      replaceRepo,
      ['fictional.registry.example/nginx:v1.0.0', 'registry.k8s.io/nginx:0.8'],
    ],
    [
      'Deployment with two containers, predicate on the second: only it',
      deployment(['fictional.registry.example/imagename:v1.0.0', 'registry.k8s.io/nginx-slim:0.8']),
      { ...replaceRepo, predicate: { path: '/spec/template/spec/containers/1/image' } },
      ['fictional.registry.example/imagename:v1.0.0', 'registry.k8s.io/nginx:0.8'],
    ],
    [
      'Job, empty predicate: Registry add',
      job(),
      { component: 'Registry', operator: 'add', value: 'registry.k8s.io' },
      ['registry.k8s.io/perl:5.34.0'],
    ],
    [
      'Job, predicate: Registry add',
      job(),
      {
        component: 'Registry',
        operator: 'add',
        value: 'registry.k8s.io',
        predicate: { path: '/spec/template/spec/containers/0/image' },
      },
      ['registry.k8s.io/perl:5.34.0'],
    ],
    ['Pod: /spec/containers/N/image', pod(), replaceRepo, ['fictional.registry.example/nginx:v1.0.0']],
    [
      'Pod: Tag replace with a digest',
      pod('nginx:1.25'),
      { component: 'Tag', operator: 'replace', value: DIGEST },
      [`nginx@${DIGEST}`],
    ],
    [
      'StatefulSet: "x/app" has no registry (no "." or ":"), so the whole path is the repository',
      workload('StatefulSet', { containers: [{ name: 'a', image: 'x/app:1' }] }),
      replaceRepo,
      ['nginx:1'],
    ],
    [
      'ReplicaSet',
      workload('ReplicaSet', { containers: [{ name: 'a', image: 'a.io/app:1' }] }),
      replaceRepo,
      ['a.io/nginx:1'],
    ],
    [
      'DaemonSet',
      workload('DaemonSet', { containers: [{ name: 'a', image: 'a.io/app:1' }] }),
      replaceRepo,
      ['a.io/nginx:1'],
    ],
  ];
  for (const [name, obj, overrider, want] of cases) {
    it(name, () => {
      const before = structuredClone(obj);
      const result = applyOverrides(obj, [rule({ imageOverrider: [overrider] })]);
      assert.ok(result.ok, result.ok ? '' : result.error);
      assert.deepEqual(images(result.object), want);
      assert.deepEqual(obj, before);
    });
  }

  it('init containers are not rewritten without a predicate (Karmada only walks containers)', () => {
    const obj = pod('a.io/app:1', { initContainers: [{ name: 'init', image: 'a.io/init:1' }] });
    const result = applyOverrides(obj, [rule({ imageOverrider: [replaceRepo] })]);
    assert.ok(result.ok);
    assert.deepEqual(images(result.object), ['a.io/nginx:1']);
    assert.deepEqual(images(result.object, 'initContainers'), ['a.io/init:1']);
  });

  it('an init container is rewritten through a predicate path', () => {
    const obj = pod('a.io/app:1', { initContainers: [{ name: 'init', image: 'a.io/init:1' }] });
    const predicate = { path: '/spec/initContainers/0/image' };
    const result = applyOverrides(obj, [rule({ imageOverrider: [{ ...replaceRepo, predicate }] })]);
    assert.ok(result.ok);
    assert.deepEqual(images(result.object, 'initContainers'), ['a.io/nginx:1']);
    assert.deepEqual(images(result.object), ['a.io/app:1']);
  });

  it('kinds Karmada has no default path for (CronJob, custom resources) are left alone', () => {
    const cronJob: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c', namespace: 'default' },
      spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'a.io/app:1' }] } } } } },
    };
    const result = applyOverrides(cronJob, [rule({ imageOverrider: [replaceRepo] })]);
    assert.ok(result.ok);
    assert.deepEqual(result.object, cronJob);
  });

  it('CronJob through a predicate path', () => {
    const cronJob: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c', namespace: 'default' },
      spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'a.io/app:1' }] } } } } },
    };
    const predicate = { path: '/spec/jobTemplate/spec/template/spec/containers/0/image' };
    const result = applyOverrides(cronJob, [rule({ imageOverrider: [{ ...replaceRepo, predicate }] })]);
    assert.ok(result.ok);
    assert.equal(dig(result.object, 'spec.jobTemplate.spec.template.spec.containers.0.image'), 'a.io/nginx:1');
  });

  it('several image overriders apply in order, each on the previous result', () => {
    const result = applyOverrides(deployment(), [
      rule({
        imageOverrider: [
          { component: 'Registry', operator: 'replace', value: 'mirror.example' },
          { component: 'Tag', operator: 'replace', value: 'v2' },
        ],
      }),
    ]);
    assert.ok(result.ok);
    assert.deepEqual(images(result.object), ['mirror.example/imagename:v2']);
  });

  const failures: [string, KubeObject, ImageOverrider, RegExp][] = [
    [
      'predicate path to a missing field',
      deployment(),
      { ...replaceRepo, predicate: { path: '/spec/template/spec/containers/3/image' } },
      /failed to obtain imageValue with predicate path/,
    ],
    [
      'predicate path through a non-number index',
      deployment(),
      { ...replaceRepo, predicate: { path: '/spec/template/spec/containers/x/image' } },
      /path\(x\) of rawObj's is not number/,
    ],
    [
      'predicate path without a leading slash',
      deployment(),
      { ...replaceRepo, predicate: { path: 'spec/template/spec/containers/0/image' } },
      /imagePath should be start with \/ character/,
    ],
    [
      'predicate to a non-string',
      deployment(),
      { ...replaceRepo, predicate: { path: '/spec/replicas' } },
      /failed to convert path\(replicas\) to string/,
    ],
    [
      'an unparsable image',
      deployment(['Bad Image']),
      replaceRepo,
      /failed to parse image value\(Bad Image\), error: invalid reference format/,
    ],
    [
      'a container without image',
      workload('Deployment', { containers: [{ name: 'a' }] }),
      replaceRepo,
      /failed to parse image value\(\), error: repository name must have at least one component/,
    ],
    [
      'containers that is not a list',
      workload('Deployment', { containers: {} }),
      replaceRepo,
      /failed to convert Deployment from unstructured object/,
    ],
  ];
  for (const [name, obj, overrider, message] of failures) {
    it(`error: ${name}`, () => {
      const before = structuredClone(obj);
      const result = applyOverrides(obj, [rule({ imageOverrider: [overrider] })]);
      assert.equal(result.ok, false);
      if (!result.ok) assert.match(result.error, message);
      assert.deepEqual(obj, before);
    });
  }
});
