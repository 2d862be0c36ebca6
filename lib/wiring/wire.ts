/**
 * Builds the runtime dependencies from configuration — once per cold start (functions) or once per
 * process (local mode). The only place that picks adapters; everything else receives ports.
 */
import { hostname } from 'node:os';
import { createDynamoClient } from '../adapters/dynamodb/client.ts';
import { KmsEnvelopeCipher } from '../adapters/kms/cipher.ts';
import { createKmsClient } from '../adapters/kms/client.ts';
import { type CredentialCipher, SealError } from '../crypto/cipher.ts';
import { LocalKeyCipher } from '../crypto/local-key.ts';
import { type EventRecorder, StoreEventRecorder } from '../events/recorder.ts';
import { DynamoRowStore } from '../adapters/dynamodb/row-store.ts';
import { createSqsClient, SqsTransport } from '../adapters/sqs/transport.ts';
import { type Clock, systemClock } from '../clock/clock.ts';
import type { RuntimeConfig } from '../config/runtime.ts';
import { createLogger, type Logger } from '../observability/logger.ts';
import { createMetrics, type EmfDocument, type Metrics } from '../observability/metrics.ts';
import { queueName, queueNameFromArn } from '../queue/naming.ts';
import type { Lane } from '../queue/port.ts';
import { TransportWorkQueue } from '../queue/work-queue.ts';
import type { BatchDependencies } from '../reconcile/batch.ts';
import type { Controller } from '../reconcile/controller.ts';
import { type ControllerHandler, createControllerHandler } from '../reconcile/handler.ts';
import { PREVIOUS_VERSION_GRACE_MS } from '../store/kind-shards.ts';
import { RowObjectStore } from '../store/row-object-store.ts';
import { eventTtl } from '../store/ttl.ts';
import type { Runtime } from './runtime.ts';

/** The runtime from configuration: the DynamoDB object store, SQS queues and the credential cipher. */
export function wireRuntime(config: RuntimeConfig, clock: Clock = systemClock): Runtime {
  const dynamo = createDynamoClient({
    region: config.region,
    ...(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {}),
  });
  const sqs = createSqsClient({
    region: config.region,
    ...(config.sqsEndpoint ? { endpoint: config.sqsEndpoint } : {}),
  });
  const transport = new SqsTransport(sqs);
  const queueUrl = (controller: string, lane: Lane) =>
    config.queueUrlBase + queueName(config.queuePrefix, controller, lane);
  const rows = new DynamoRowStore({ client: dynamo, tableName: config.tableName });
  return {
    config,
    clock,
    cipher: credentialCipher(config),
    store: new RowObjectStore(rows, {
      clock,
      ttlSeconds: eventTtl(config.eventTtlSeconds),
      // In AWS a deploy's previous version may still be writing; locally nothing else writes the table.
      previousVersionGraceMs: config.dynamodbEndpoint ? 0 : PREVIOUS_VERSION_GRACE_MS,
    }),
    rows,
    transport,
    workQueue: new TransportWorkQueue(transport, queueUrl, clock),
    queueUrl,
    close() {
      dynamo.destroy();
      sqs.destroy();
    },
  };
}

/**
 * The cipher for member-cluster credentials: KMS envelope encryption when a key is configured (AWS),
 * else the local key file (created on first use), else one that refuses with what to configure.
 */
export function credentialCipher(config: RuntimeConfig): CredentialCipher {
  if (config.credentialsKmsKey) {
    return new KmsEnvelopeCipher(createKmsClient({ region: config.region }), config.credentialsKmsKey);
  }
  const file = config.credentialsKeyFile;
  if (file) {
    let local: Promise<LocalKeyCipher> | undefined;
    const get = () => (local ??= LocalKeyCipher.fromKeyFile(file));
    return {
      seal: async (plaintext, context) => (await get()).seal(plaintext, context),
      open: async (sealed, context) => (await get()).open(sealed, context),
    };
  }
  const refuse = async (): Promise<never> => {
    throw new SealError(
      'no key for member-cluster credentials is configured: set SK_CREDENTIALS_KMS_KEY (AWS) or SK_CREDENTIALS_KEY_FILE (local)',
    );
  };
  return { seal: refuse, open: refuse };
}

/** The event recorder a controller uses, reporting as `component`. */
export function eventRecorder(runtime: Runtime, component: string): EventRecorder {
  return new StoreEventRecorder({
    store: runtime.store,
    clock: runtime.clock,
    component,
    instance: process.env.AWS_LAMBDA_FUNCTION_NAME ?? hostname(),
  });
}

export interface ObservabilityOptions {
  /** Text log lines go here instead of stderr. */
  logWrite?: (line: string) => void;
  /** EMF documents go here instead of stdout. */
  metricsSink?: (doc: EmfDocument) => void;
}

/** Logger and metrics for one controller function, per the runtime config. */
export function observabilityFor(
  controller: string,
  config: RuntimeConfig,
  options: ObservabilityOptions = {},
): { logger: Logger; metrics: Metrics } {
  const logger = createLogger({
    format: config.logFormat,
    level: config.logLevel,
    service: controller,
    persistentKeys: { controller, environment: config.environment },
    ...(options.logWrite ? { write: options.logWrite } : {}),
  });
  const sink = options.metricsSink ?? (config.metrics === 'off' ? () => {} : undefined);
  const metrics = createMetrics({ service: controller, ...(sink ? { sink } : {}) });
  return { logger, metrics };
}

/** Everything {@link processBatch} needs for one controller function. */
export function batchDependencies(
  controller: string,
  runtime: Runtime,
  options: ObservabilityOptions = {},
): BatchDependencies {
  const { logger, metrics } = observabilityFor(controller, runtime.config, options);
  return {
    workQueue: runtime.workQueue,
    clock: runtime.clock,
    logger,
    metrics,
    concurrency: runtime.config.reconcileConcurrency,
    changeVisibility: (queueArn, receiptHandle, seconds) =>
      runtime.transport.changeVisibility(
        runtime.config.queueUrlBase + queueNameFromArn(queueArn),
        receiptHandle,
        seconds,
      ),
  };
}

/** The Lambda handler of one controller: its factory applied to the runtime, wrapped by the framework. */
export function controllerHandler(
  name: string,
  factory: (runtime: Runtime) => Controller,
  runtime: Runtime,
  options: ObservabilityOptions = {},
): ControllerHandler {
  return createControllerHandler(factory(runtime), batchDependencies(name, runtime, options));
}
