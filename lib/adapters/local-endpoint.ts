/**
 * HTTP to the local SQS-compatible server (local mode, tests, benchmarks). The SDK's default agent
 * allows 50 sockets per client: one process running every controller long-polls 58 queues' pollers from
 * one client, and the excess polls — and every send behind them — waited for a long poll to end (up to
 * 20 s) with the CPU idle. In AWS the defaults stand: Lambda does the polling. (DynamoDB keeps the
 * default: measured, more concurrent calls only slow the in-process server down.)
 */
import { Agent } from 'node:http';

export const LOCAL_MAX_SOCKETS = 1024;

/** The `requestHandler` option of an SDK client talking to a local endpoint. */
export function localRequestHandler(): { httpAgent: Agent } {
  return { httpAgent: new Agent({ keepAlive: true, maxSockets: LOCAL_MAX_SOCKETS }) };
}
