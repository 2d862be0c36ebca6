/**
 * HTTP to the local DynamoDB- and SQS-compatible servers (local mode, tests, benchmarks). The SDK's
 * default agent allows 50 sockets per client: one process running every controller has more long polls
 * (58 pollers) and store calls in flight than that, and the excess would wait for a socket — up to a
 * long poll's 20 s — with the CPU idle. In AWS the defaults stand: Lambda does the polling.
 */
import { Agent } from 'node:http';

export const LOCAL_MAX_SOCKETS = 1024;

/** The `requestHandler` option of an SDK client talking to a local endpoint. */
export function localRequestHandler(): { httpAgent: Agent } {
  return { httpAgent: new Agent({ keepAlive: true, maxSockets: LOCAL_MAX_SOCKETS }) };
}
