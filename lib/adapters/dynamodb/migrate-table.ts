/**
 * Upgrades a local object table in place when a newer version defines an index the table lacks
 * and the engine cannot add one (dynalite cannot: its UpdateTable ignores index creation). The
 * items are first written to a backup file, then the table is re-created with the current schema and
 * the items put back, with the index attributes this version derives from each body (the owner of
 * `byOwner`). A backup left by an interrupted upgrade is restored at the next start. Local mode only:
 * in AWS the stack adds the index, and DynamoDB back-fills it only from items that already carry the
 * attribute — items written before the attribute existed need a re-write (no deployment predates it
 * yet; a table that does would need a one-off back-fill job).
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import {
  type AttributeValue,
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { decodeBody } from '../../store/codec.ts';
import { ownerKeyOf, SEARCH_CACHE_PREFIX } from '../../store/layout.ts';
import { ensureTable } from './ensure-table.ts';
import { ATTR, createTableInput } from './table.ts';

type Item = Record<string, AttributeValue>;
type StoredItem = Record<string, { S?: string; N?: string; B?: string }>;

/** Indexes the current schema defines that the table lacks. */
async function missingIndexes(client: DynamoDBClient, tableName: string): Promise<string[]> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  return (createTableInput(tableName).GlobalSecondaryIndexes ?? [])
    .map((i) => i.IndexName!)
    .filter((name) => !present.has(name));
}

function toStored(item: Item): StoredItem {
  const out: StoredItem = {};
  for (const [k, v] of Object.entries(item)) {
    if (v.S !== undefined) out[k] = { S: v.S };
    else if (v.N !== undefined) out[k] = { N: v.N };
    else if (v.B !== undefined) out[k] = { B: Buffer.from(v.B).toString('base64') };
  }
  return out;
}

function fromStored(item: StoredItem): Item {
  const out: Item = {};
  for (const [k, v] of Object.entries(item)) {
    if (v.S !== undefined) out[k] = { S: v.S };
    else if (v.N !== undefined) out[k] = { N: v.N };
    else if (v.B !== undefined) out[k] = { B: new Uint8Array(Buffer.from(v.B, 'base64')) };
  }
  // Derive this version's index attributes from the body.
  const body = out[ATTR.body]?.B;
  // Search-cache rows hold member objects, whose owners are not the control plane's.
  if (body && !out[ATTR.pk]?.S?.startsWith(SEARCH_CACHE_PREFIX)) {
    const owner = ownerKeyOf(decodeBody(body));
    if (owner) out[ATTR.ownerKey] = { S: owner };
  }
  return out;
}

async function putAll(client: DynamoDBClient, tableName: string, items: Item[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 20) throw new Error(`could not write ${pending.length} item(s) back into ${tableName}`);
      const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: pending } }));
      pending = (out.UnprocessedItems?.[tableName] ?? []) as typeof pending;
      if (pending.length > 0) await new Promise((r) => setTimeout(r, 20 * (attempt + 1)));
    }
  }
}

async function recreate(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
  for (let i = 0; i < 600; i++) {
    try {
      await client.send(new DescribeTableCommand({ TableName: tableName }));
      await new Promise((r) => setTimeout(r, 50));
    } catch (err) {
      if (err instanceof ResourceNotFoundException) break;
      throw err;
    }
  }
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  await ensureTable(client, tableName);
}

/**
 * Makes sure the local table exists with every index; returns how many items an upgrade moved
 * (0 when none was needed).
 */
export async function ensureLocalTable(
  client: DynamoDBClient,
  tableName: string,
  backupPath: string | undefined,
): Promise<number> {
  if (backupPath && existsSync(backupPath)) {
    // An earlier upgrade stopped after taking its backup: finish it from the backup.
    let backup: StoredItem[];
    try {
      backup = JSON.parse(readFileSync(backupPath, 'utf8')) as StoredItem[];
    } catch (err) {
      throw new Error(
        `${backupPath} (left by an interrupted upgrade of the local table) cannot be read: ${(err as Error).message}. ` +
          'It holds the objects of the table; keep it, and report this',
        { cause: err },
      );
    }
    const items = backup.map(fromStored);
    await recreate(client, tableName);
    await putAll(client, tableName, items);
    rmSync(backupPath);
    return items.length;
  }
  await ensureTable(client, tableName);
  if ((await missingIndexes(client, tableName)).length === 0) return 0;
  const stored: StoredItem[] = [];
  let start: Item | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: tableName, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }),
    );
    stored.push(...(page.Items ?? []).map(toStored));
    start = page.LastEvaluatedKey;
  } while (start);
  // Everything that can fail on the items (decoding) happens before the table is touched.
  const items = stored.map(fromStored);
  if (backupPath) {
    // Atomic: a crash leaves either no backup (table untouched) or a complete one.
    const tmp = `${backupPath}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify(stored));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, backupPath);
  }
  await recreate(client, tableName);
  await putAll(client, tableName, items);
  if (backupPath) rmSync(backupPath);
  return stored.length;
}
