import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoreEventRecorder } from '../../../lib/events/recorder.ts';
import type { ObjectStore } from '../../../lib/store/index.ts';
import { apiHarness } from '../../support/api.ts';
import { deployment } from '../../support/factories.ts';

const EVENTS = '/api/v1/namespaces/default/events';
const EVENTS_V1 = '/apis/events.k8s.io/v1/namespaces/default/events';

async function withDeployment() {
  const h = await apiHarness();
  const created = await h.call('POST', '/apis/apps/v1/namespaces/default/deployments', {
    body: deployment('nginx'),
  });
  assert.equal(created.status, 201, created.body);
  const recorder = new StoreEventRecorder({
    store: h.store,
    clock: h.clock,
    component: 'resource-detector',
    instance: 'sk-dev-detector',
  });
  return { h, recorder, nginx: created.json };
}

describe('the event recorder', () => {
  it("records an Event on the object, as client-go does, and kubectl describe's query finds it", async () => {
    const { h, recorder, nginx } = await withDeployment();
    await recorder.record(nginx, 'Normal', 'ApplyPolicySucceed', 'Apply policy(default/nginx-propagation) succeed');
    const selector = encodeURIComponent(
      `involvedObject.name=nginx,involvedObject.namespace=default,involvedObject.kind=Deployment,involvedObject.uid=${nginx.metadata.uid}`,
    );
    const found = await h.call('GET', `${EVENTS}?fieldSelector=${selector}`);
    assert.equal(found.status, 200, found.body);
    assert.equal(found.json.items.length, 1);
    const event = found.json.items[0];
    assert.equal(event.reason, 'ApplyPolicySucceed');
    assert.equal(event.type, 'Normal');
    assert.equal(event.count, 1);
    assert.deepEqual(event.source, { component: 'resource-detector', host: 'sk-dev-detector' });
    assert.equal(event.involvedObject.apiVersion, 'apps/v1');
    assert.equal(event.firstTimestamp, '2026-11-21T10:00:00Z');
  });

  it('aggregates a repeated occurrence into one Event with a count, and keeps different messages apart', async () => {
    const { h, recorder, nginx } = await withDeployment();
    await recorder.record(nginx, 'Warning', 'ScheduleBindingFailed', '0/3 clusters are available');
    await h.clock.advance(30_000);
    await recorder.record(nginx, 'Warning', 'ScheduleBindingFailed', '0/3 clusters are available');
    await recorder.record(nginx, 'Warning', 'ScheduleBindingFailed', '0/2 clusters are available');
    const list = await h.call('GET', EVENTS);
    const byMessage = new Map(list.json.items.map((e: { message: string }) => [e.message, e]));
    assert.equal(byMessage.size, 2);
    const repeated = byMessage.get('0/3 clusters are available') as Record<string, unknown>;
    assert.equal(repeated.count, 2);
    assert.equal(repeated.firstTimestamp, '2026-11-21T10:00:00Z');
    assert.equal(repeated.lastTimestamp, '2026-11-21T10:00:30Z');
  });

  it('records events about cluster-scoped objects in the default namespace', async () => {
    const { h, recorder } = await withDeployment();
    await recorder.record(
      { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', name: 'member1', uid: 'u1' },
      'Warning',
      'TaintClusterSucceed',
      'Taint cluster succeed',
    );
    const list = await h.call('GET', EVENTS);
    assert.equal(list.json.items[0].involvedObject.name, 'member1');
  });

  it('never throws when the store fails, and truncates messages past 1024 characters', async () => {
    const { h, recorder, nginx } = await withDeployment();
    await recorder.record(nginx, 'Normal', 'SyncSucceed', 'x'.repeat(5000));
    const list = await h.call('GET', EVENTS);
    assert.equal(list.json.items[0].message.length, 1024);
    const broken = new StoreEventRecorder({
      store: { get: async () => Promise.reject(new Error('throttled')) } as unknown as ObjectStore,
      clock: h.clock,
      component: 'x',
    });
    await broken.record(nginx, 'Normal', 'SyncSucceed', 'ok');
  });

  it('lets events expire an hour after their last update', async () => {
    const { h, recorder, nginx } = await withDeployment();
    await recorder.record(nginx, 'Normal', 'SyncSucceed', 'Successfully applied resource');
    await h.clock.advance(50 * 60_000);
    await recorder.record(nginx, 'Normal', 'SyncSucceed', 'Successfully applied resource');
    await h.clock.advance(50 * 60_000);
    assert.equal((await h.call('GET', EVENTS)).json.items.length, 1, 'renewed by the second occurrence');
    await h.clock.advance(11 * 60_000);
    assert.equal((await h.call('GET', EVENTS)).json.items.length, 0);
  });
});

describe('the event recorder at the store: one write per occurrence (client-go patches a repeat without a read)', () => {
  /** Row reads and writes of the harness's store while `run` runs. */
  async function rowCalls(h: Awaited<ReturnType<typeof withDeployment>>['h'], run: () => Promise<void>) {
    const counts = { get: 0, put: 0 };
    const { get, put } = h.rows;
    h.rows.get = async (...args) => (counts.get++, get.apply(h.rows, args));
    h.rows.put = async (...args) => (counts.put++, put.apply(h.rows, args));
    try {
      await run();
    } finally {
      h.rows.get = get;
      h.rows.put = put;
    }
    return counts;
  }
  const count = async (h: Awaited<ReturnType<typeof withDeployment>>['h'], message: string) =>
    (await h.call('GET', EVENTS)).json.items.find((e: { message: string }) => e.message === message)?.count;

  it('a new event is one write; a repeat this process recorded is one conditional write, no read', async () => {
    const { h, recorder, nginx } = await withDeployment();
    const first = await rowCalls(h, () =>
      recorder.record(nginx, 'Normal', 'ScheduleBindingSucceed', 'Binding has been scheduled successfully.'),
    );
    assert.deepEqual(first, { get: 0, put: 1 });
    await h.clock.advance(1_000);
    const repeat = await rowCalls(h, () =>
      recorder.record(nginx, 'Normal', 'ScheduleBindingSucceed', 'Binding has been scheduled successfully.'),
    );
    assert.deepEqual(repeat, { get: 0, put: 1 });
    assert.equal(await count(h, 'Binding has been scheduled successfully.'), 2);
  });

  it('a repeat after another process bumped the event: the conditional write loses, and the count still goes up by one', async () => {
    const { h, recorder, nginx } = await withDeployment();
    // Another process: its own store client (and so its own copies of the events).
    const elsewhere = {
      get: h.store.get.bind(h.store),
      create: h.store.create.bind(h.store),
      update: h.store.update.bind(h.store),
    } as unknown as ObjectStore;
    const other = new StoreEventRecorder({
      store: elsewhere,
      clock: h.clock,
      component: 'resource-detector',
      instance: 'sk-dev-detector',
    });
    await recorder.record(nginx, 'Normal', 'SyncSucceed', 'applied');
    await other.record(nginx, 'Normal', 'SyncSucceed', 'applied');
    await recorder.record(nginx, 'Normal', 'SyncSucceed', 'applied');
    assert.equal(await count(h, 'applied'), 3);
  });

  it('a repeat after the event expired is a new event (count 1), not a revived one', async () => {
    const { h, recorder, nginx } = await withDeployment();
    await recorder.record(nginx, 'Normal', 'SyncSucceed', 'applied');
    await recorder.record(nginx, 'Normal', 'SyncSucceed', 'applied');
    await h.clock.advance(61 * 60_000);
    assert.equal(await count(h, 'applied'), undefined, 'expired');
    await recorder.record(nginx, 'Normal', 'SyncSucceed', 'applied');
    assert.equal(await count(h, 'applied'), 1);
  });

  it('the copy it holds is not used once its row could have expired: the event is read first', async () => {
    const { h, recorder, nginx } = await withDeployment();
    await recorder.record(nginx, 'Normal', 'SyncSucceed', 'applied');
    await h.clock.advance(3_599_000); // the last second before the row may expire
    const late = await rowCalls(h, () => recorder.record(nginx, 'Normal', 'SyncSucceed', 'applied'));
    assert.deepEqual(late, { get: 1, put: 1 });
    assert.equal(await count(h, 'applied'), 2);
  });
});

describe('Events through both APIs', () => {
  it('serves a core/v1 Event through events.k8s.io/v1 with the newer field names, and back', async () => {
    const { h, recorder, nginx } = await withDeployment();
    await recorder.record(nginx, 'Normal', 'SyncSucceed', 'Successfully applied resource');
    const v1 = await h.call('GET', EVENTS_V1);
    assert.equal(v1.status, 200, v1.body);
    const e = v1.json.items[0];
    assert.equal(e.apiVersion, 'events.k8s.io/v1');
    assert.equal(e.regarding.name, 'nginx');
    assert.equal(e.note, 'Successfully applied resource');
    assert.equal(e.reportingController, 'resource-detector');
    assert.equal(e.deprecatedCount, 1);
    assert.equal(e.involvedObject, undefined);

    const created = await h.call('POST', EVENTS_V1, {
      body: {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'nginx.manual' },
        eventTime: '2026-11-21T10:00:00.000000Z',
        reportingController: 'example.com/operator',
        reportingInstance: 'operator-0',
        action: 'Scale',
        reason: 'Scaled',
        type: 'Normal',
        note: 'scaled by hand',
        regarding: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx', namespace: 'default' },
      },
    });
    assert.equal(created.status, 201, created.body);
    const core = await h.call('GET', `${EVENTS}/nginx.manual`);
    assert.equal(core.json.apiVersion, 'v1');
    assert.equal(core.json.message, 'scaled by hand');
    assert.equal(core.json.involvedObject.kind, 'Deployment');
    assert.equal(core.json.reportingComponent, 'example.com/operator');

    const filtered = await h.call(
      'GET',
      `${EVENTS_V1}?fieldSelector=${encodeURIComponent('regarding.name=nginx,reason=Scaled')}`,
    );
    assert.deepEqual(
      filtered.json.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ['nginx.manual'],
    );
    const deleted = await h.call('DELETE', `${EVENTS_V1}/nginx.manual`);
    assert.equal(deleted.status, 200, deleted.body);
    assert.equal((await h.call('GET', `${EVENTS}/nginx.manual`)).status, 404);
  });

  it('rejects an events.k8s.io/v1 Event missing what the API requires, naming each field, and stores nothing', async () => {
    const h = await apiHarness();
    const res = await h.call('POST', EVENTS_V1, {
      body: {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'bad' },
        reason: 'Scaled',
        type: 'Info',
        deprecatedCount: 3,
      },
    });
    assert.equal(res.status, 422, res.body);
    const fields = res.json.details.causes.map((c: { field: string }) => c.field);
    for (const f of ['eventTime', 'type', 'deprecatedCount']) assert.ok(fields.includes(f), `${f} in ${fields}`);
    assert.equal((await h.call('GET', EVENTS)).json.items.length, 0);
  });

  it("rejects a core Event recorded outside its object's namespace", async () => {
    const h = await apiHarness();
    const res = await h.call('POST', EVENTS, {
      body: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'misplaced' },
        involvedObject: { kind: 'Pod', name: 'p', namespace: 'kube-system' },
        reason: 'Started',
        message: 'started',
      },
    });
    assert.equal(res.status, 422, res.body);
    assert.match(
      res.json.message,
      /involvedObject\.namespace: Invalid value: "kube-system": does not match event\.namespace/,
    );
  });

  it('refuses to change what an event is about through events.k8s.io/v1', async () => {
    const { h, recorder, nginx } = await withDeployment();
    await recorder.record(nginx, 'Normal', 'SyncSucceed', 'ok');
    const [event] = (await h.call('GET', EVENTS_V1)).json.items;
    const res = await h.call('PUT', `${EVENTS_V1}/${event.metadata.name}`, {
      body: { ...event, reason: 'Other' },
    });
    assert.equal(res.status, 422, res.body);
    assert.match(res.json.message, /reason: Invalid value: "Other": field is immutable/);
  });
});
