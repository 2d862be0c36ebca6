/**
 * The name of a controller's dead-letter queue in AWS, shared by its two lanes:
 * `<prefix>-<controller>-dlq` (docs/decisions/0018-idle-cost.md). Local mode keeps one per lane
 * (`deadLetterQueueName` in lib/queue/naming.ts); nothing reads a DLQ's name at run time. No CDK import
 * here, so the cost bench can lay its queues out the same way.
 */
export function controllerDeadLetterQueueName(prefix: string, controller: string): string {
  return `${prefix}-${controller}-dlq`;
}
