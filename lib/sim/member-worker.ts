/**
 * The worker thread local mode runs its simulated members in (started by {@link MemberThread} through
 * member-worker.mjs). Each member serves HTTPS on loopback from here, so the control plane reaches it
 * over the network as before, while its controllers, pods and API handling no longer share the
 * control plane's event loop. Requests from the main thread start in the order they arrive (a fault
 * set before a read applies to it); log lines are sent back to be written where the main thread writes its own.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../clock/clock.ts';
import { createLogger, type LogFormat, type Logger, type LogLevelName } from '../observability/logger.ts';
import type { WorkloadRef } from './controllers/index.ts';
import { type Fault, SimulatedMember } from './member.ts';
import {
  encodeError,
  MEMBER_METHODS,
  type MemberReply,
  type MemberRequest,
  STORE_METHODS,
  type StartedMember,
} from './member-wire.ts';

/** What {@link MemberThread} passes as `workerData`. */
export interface MemberWorkerData {
  logFormat: LogFormat;
  logLevel: LogLevelName;
}

const port = parentPort;
if (!port) throw new Error('member-worker.ts runs in a worker thread started by MemberThread');
const data = workerData as MemberWorkerData;
const post = (reply: MemberReply) => port.postMessage(reply);
const logger: Logger = createLogger({
  format: data.logFormat,
  level: data.logLevel,
  service: 'skctl',
  write: (line) => post({ log: line }),
});
const members = new Map<string, SimulatedMember>();

async function serve(req: MemberRequest): Promise<unknown> {
  if (req.op === 'start') {
    const name = req.options.config.name;
    if (members.has(name)) throw new Error(`member ${name} is already running in this thread`);
    const member = await SimulatedMember.start({ ...req.options, clock: systemClock, logger });
    members.set(name, member);
    const started: StartedMember = {
      url: member.url,
      token: member.token,
      kubeconfig: member.kubeconfig,
      unhealthy: member.unhealthyWorkloads,
    };
    return started;
  }
  const member = members.get(req.member);
  if (!member) throw new Error(`no member ${req.member} is running in this thread`);
  if (req.op === 'store') {
    if (!STORE_METHODS.includes(req.method)) throw new Error(`unknown store method ${String(req.method)}`);
    const method = member.store[req.method] as (...args: unknown[]) => Promise<unknown>;
    return method.apply(member.store, req.args);
  }
  if (!MEMBER_METHODS.includes(req.method)) throw new Error(`unknown member method ${String(req.method)}`);
  const args = req.args;
  switch (req.method) {
    case 'setFault':
      return member.setFault(args[0] as Fault);
    case 'recover':
      return member.recover();
    case 'markUnhealthy':
      return member.markUnhealthy(args[0] as WorkloadRef);
    case 'markHealthy':
      return member.markHealthy(args[0] as WorkloadRef);
    case 'resolveWorkload':
      return member.resolveWorkload(args[0] as string, args[1] as string | undefined);
    case 'settle':
      return member.settle();
    case 'stop':
      members.delete(req.member);
      return member.stop();
  }
}

port.on('message', (req: MemberRequest) => {
  serve(req).then(
    (value) => post({ id: req.id, ok: true, value }),
    (err: unknown) => post({ id: req.id, ok: false, error: encodeError(err) }),
  );
});
