import { describeObjectStoreContract } from '../../contract/object-store.contract.ts';
import { dynamoBackend } from '../../support/dynamo-backend.ts';
import { startDynamoDbLocal } from '../../support/dynamodb-local.ts';

describeObjectStoreContract(dynamoBackend('DynamoDB Local (the real engine)', () => startDynamoDbLocal()));
