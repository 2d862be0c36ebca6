/**
 * The SQS {@link QueueAdmin}: a queue's settings become SQS queue attributes (strings, the redrive
 * policy as JSON), and its depth is SQS's approximate visible plus in-flight count.
 */
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { QueueAdmin, QueueSettings } from '../../queue/port.ts';

export class SqsQueueAdmin implements QueueAdmin {
  readonly #client: SQSClient;

  constructor(client: SQSClient) {
    this.#client = client;
  }

  async create(name: string, settings: QueueSettings): Promise<{ url: string; arn: string }> {
    const attributes: Record<string, string> = {};
    if (settings.visibilityTimeoutSeconds !== undefined)
      attributes.VisibilityTimeout = String(settings.visibilityTimeoutSeconds);
    attributes.MessageRetentionPeriod = String(settings.retentionSeconds);
    if (settings.deadLetter) {
      attributes.RedrivePolicy = JSON.stringify({
        deadLetterTargetArn: settings.deadLetter.queueArn,
        maxReceiveCount: settings.deadLetter.maxReceiveCount,
      });
    }
    const { QueueUrl } = await this.#client.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
    const { Attributes } = await this.#client.send(
      new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    if (!QueueUrl || !Attributes?.QueueArn) throw new Error(`creating queue ${name} returned no URL or ARN`);
    return { url: QueueUrl, arn: Attributes.QueueArn };
  }

  async depth(queue: string): Promise<number> {
    const { Attributes } = await this.#client.send(
      new GetQueueAttributesCommand({
        QueueUrl: queue,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    return (
      Number(Attributes?.ApproximateNumberOfMessages ?? 0) +
      Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
    );
  }
}
