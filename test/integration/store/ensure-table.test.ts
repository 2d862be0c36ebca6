/**
 * A local data directory outlives upgrades: the object table an older version created gets the
 * indexes this version defines, with every object kept — on dynalite, local mode's engine, which
 * cannot add an index to an existing table.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CreateTableCommand, DeleteItemCommand, DescribeTableCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoClient } from '../../../lib/adapters/dynamodb/client.ts';
import { ensureLocalTable } from '../../../lib/adapters/dynamodb/migrate-table.ts';
import { DynamoRowStore } from '../../../lib/adapters/dynamodb/row-store.ts';
import { createTableInput, INDEX } from '../../../lib/adapters/dynamodb/table.ts';
import { systemClock } from '../../../lib/clock/clock.ts';
import { startDynalite } from '../../../lib/local/emulators.ts';
import type { LocalServer } from '../../../lib/local/servers.ts';
import { encodeBody } from '../../../lib/store/codec.ts';
import { rowKeysOf } from '../../../lib/store/layout.ts';
import { RowObjectStore } from '../../../lib/store/row-object-store.ts';
import { configMap, deployment } from '../../support/factories.ts';

let server: LocalServer;
before(async () => {
  server = await startDynalite();
});
after(() => server.stop());

function oldSchema(name: string) {
  const current = createTableInput(name);
  return {
    ...current,
    AttributeDefinitions: current.AttributeDefinitions!.filter((a) => a.AttributeName !== 'ow'),
    GlobalSecondaryIndexes: current.GlobalSecondaryIndexes!.filter((i) => i.IndexName !== INDEX.byOwner),
  };
}

describe('upgrading a local object table', () => {
  it('re-creates it with the new index, keeping every object and indexing owners', async () => {
    const client = createDynamoClient({ region: 'us-east-1', endpoint: server.endpoint });
    await client.send(new CreateTableCommand(oldSchema('upgraded')));
    // Rows as an older version wrote them: no owner attribute.
    const owned = configMap('owned', { a: '1' });
    owned.metadata.ownerReferences = [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-web', controller: true },
    ];
    for (const [obj, version] of [
      [owned, 1],
      [deployment('web'), 2],
    ] as const) {
      const stored = { ...obj, metadata: { ...obj.metadata, uid: `u${version}`, resourceVersion: String(version) } };
      const keys = rowKeysOf({
        group: obj.apiVersion.includes('/') ? 'apps' : '',
        kind: obj.kind,
        namespace: 'default',
        name: obj.metadata.name!,
      });
      await client.send(
        new PutItemCommand({
          TableName: 'upgraded',
          Item: {
            pk: { S: keys.pk },
            ks: { S: keys.kindShard },
            sk: { S: keys.sortKey },
            v: { N: String(version) },
            b: { B: encodeBody(stored).bytes },
          },
        }),
      );
    }
    const dir = mkdtempSync(join(tmpdir(), 'upgrade-'));
    const backup = join(dir, 'backup.json');
    assert.equal(await ensureLocalTable(client, 'upgraded', backup), 2);
    assert.ok(!existsSync(backup), 'the backup is removed once the upgrade is done');
    const { Table } = await client.send(new DescribeTableCommand({ TableName: 'upgraded' }));
    assert.deepEqual((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort(), [
      'byCluster',
      'byKind',
      'byOwner',
    ]);
    const store = new RowObjectStore(new DynamoRowStore({ client, tableName: 'upgraded' }), { clock: systemClock });
    assert.deepEqual((await store.get({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'owned' }))?.data, {
      a: '1',
    });
    assert.deepEqual(
      (await store.listDependents('uid-web')).items.map((r) => r.name),
      ['owned'],
    );
    assert.equal(await ensureLocalTable(client, 'upgraded', backup), 0, 'nothing to do the second time');
    client.destroy();
  });

  it('finishes an upgrade that was interrupted after its backup', async () => {
    const client = createDynamoClient({ region: 'us-east-1', endpoint: server.endpoint });
    await client.send(new CreateTableCommand(oldSchema('interrupted')));
    const store = new RowObjectStore(new DynamoRowStore({ client, tableName: 'interrupted' }), { clock: systemClock });
    const kept = await store.create(configMap('kept', { k: 'v' }));
    const keys = rowKeysOf({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'kept' });
    // The crash: the backup was written and the table already emptied.
    const dir = mkdtempSync(join(tmpdir(), 'upgrade-'));
    const backup = join(dir, 'backup.json');
    writeFileSync(
      backup,
      JSON.stringify([
        {
          pk: { S: keys.pk },
          ks: { S: keys.kindShard },
          sk: { S: keys.sortKey },
          v: { N: kept.metadata.resourceVersion },
          b: { B: Buffer.from(encodeBody(kept).bytes).toString('base64') },
        },
      ]),
    );
    await client.send(new DeleteItemCommand({ TableName: 'interrupted', Key: { pk: { S: keys.pk } } }));
    assert.equal(await ensureLocalTable(client, 'interrupted', backup), 1);
    assert.equal(
      (await store.get({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'kept' }))?.metadata.uid,
      kept.metadata.uid,
    );
    client.destroy();
  });
});
