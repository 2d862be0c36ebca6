/**
 * The name of a controller's dead-letter queue, shared by its two lanes — the same in AWS and local
 * mode (lib/queue/naming.ts; docs/decisions/0018-idle-cost.md). Kept under this name for the stacks and
 * the cost bench, which lay their queues out the same way.
 */
export { deadLetterQueueName as controllerDeadLetterQueueName } from '../../lib/queue/naming.ts';
