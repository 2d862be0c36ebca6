/**
 * How long controller queues keep messages: one setting for the stateful stack (infra) and local
 * mode's provisioning, so a local queue behaves as the deployed one does.
 */

/** An unconsumed message lives 4 days (SQS's default): a stuck controller's backlog outlives a weekend. */
export const QUEUE_RETENTION_SECONDS = 4 * 24 * 3600;
/** A dead-lettered message lives 14 days (SQS's maximum): time to look at it and redrive it. */
export const DLQ_RETENTION_SECONDS = 14 * 24 * 3600;
