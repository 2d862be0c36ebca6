/**
 * The controller message: a key to reconcile, plus an optional not-before time for timers longer
 * than SQS's 15-minute delay (the consumer re-arms them, hop by hop; see {@link timerDue}).
 */
import type { Lane, OutgoingMessage, ReceivedMessage } from './port.ts';

/** Longest delay SQS applies to one message. */
export const MAX_DELAY_SECONDS = 900;

/** A timer firing less than this early counts as due (SQS delays have one-second granularity). */
export const TIMER_TOLERANCE_MS = 1000;

export interface ControllerMessage {
  key: string;
  /** Epoch ms before which the message must not be processed. */
  notBefore?: number;
  reason?: string;
}

/** A message could not be read: it is not one this system wrote. */
export class MalformedMessageError extends Error {
  override readonly name = 'MalformedMessageError';
}

/** Builds the SQS message for a key, splitting long delays into a first hop plus `notBefore`. */
export function encodeMessage(
  item: { key: string; lane: Lane; delayMs?: number; reason?: string },
  nowMs: number,
): OutgoingMessage {
  const body: ControllerMessage = { key: item.key };
  if (item.reason) body.reason = item.reason;
  const delayMs = Math.max(0, item.delayMs ?? 0);
  const out: OutgoingMessage = { body: '', attributes: { lane: item.lane } };
  if (item.reason) out.attributes!.reason = item.reason;
  if (delayMs > 0) {
    const seconds = Math.ceil(delayMs / 1000);
    out.delaySeconds = Math.min(seconds, MAX_DELAY_SECONDS);
    if (seconds > MAX_DELAY_SECONDS) body.notBefore = nowMs + delayMs;
  }
  out.body = JSON.stringify(body);
  return out;
}

export function decodeMessage(message: Pick<ReceivedMessage, 'body' | 'messageId'>): ControllerMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.body);
  } catch {
    throw new MalformedMessageError(`message ${message.messageId} is not JSON`);
  }
  const m = parsed as Partial<ControllerMessage>;
  if (typeof m !== 'object' || m === null || typeof m.key !== 'string' || m.key === '') {
    throw new MalformedMessageError(`message ${message.messageId} has no "key"`);
  }
  if (m.notBefore !== undefined && typeof m.notBefore !== 'number') {
    throw new MalformedMessageError(`message ${message.messageId} has a non-numeric "notBefore"`);
  }
  const out: ControllerMessage = { key: m.key };
  if (m.notBefore !== undefined) out.notBefore = m.notBefore;
  if (typeof m.reason === 'string') out.reason = m.reason;
  return out;
}

/** `undefined` when the message is due; otherwise the ms left before it is. */
export function timerDue(message: ControllerMessage, nowMs: number): number | undefined {
  if (message.notBefore === undefined) return undefined;
  const remaining = message.notBefore - nowMs;
  return remaining > TIMER_TOLERANCE_MS ? remaining : undefined;
}
