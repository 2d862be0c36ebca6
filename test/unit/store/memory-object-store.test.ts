import { systemClock } from '../../../lib/clock/index.ts';
import { MemoryRowStore, RowObjectStore } from '../../../lib/store/index.ts';
import { describeObjectStoreContract } from '../../contract/object-store.contract.ts';

describeObjectStoreContract({
  name: 'the in-memory row store',
  start: async () => {},
  stop: async () => {},
  newStore: async (options) => new RowObjectStore(new MemoryRowStore(), { clock: systemClock, ...options }),
});
