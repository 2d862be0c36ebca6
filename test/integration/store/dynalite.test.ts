import { startDynalite } from '../../../lib/local/emulators.ts';
import { describeObjectStoreContract } from '../../contract/object-store.contract.ts';
import { dynamoBackend } from '../../support/dynamo-backend.ts';

describeObjectStoreContract(dynamoBackend('dynalite', () => startDynalite()));
