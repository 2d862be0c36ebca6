/**
 * The local control channel of `skctl up`: HTTP over a Unix socket (file permissions keep it to the
 * local user) through which `skctl sim fail|recover|list|unhealthy|healthy` drive the simulated
 * members.
 *
 *   GET  /members                       every member (MemberView)
 *   POST /members/<name>/fail           {mode?, delayMs?}: a member fault
 *   POST /members/<name>/recover
 *   POST /members/<name>/unhealthy      {workload: "<kind>/<name>", namespace?}: mark a workload
 *   POST /members/<name>/healthy        the same body: clear the mark (WorkloadMarkView)
 */
import { existsSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { WorkloadRef } from './controllers/index.ts';
import { FAULT_MODES, type FaultMode, type RunningMember } from './member.ts';
import { splitRequestTarget } from '../kube/base/request-guard.ts';
import { isDNS1123Label } from '../util/validation.ts';

export interface MemberView {
  name: string;
  url: string;
  kubeconfig: string;
  provider: string;
  region: string;
  zones: string[];
  fault: { mode: FaultMode; delayMs?: number } | null;
  /** The workloads marked unhealthy on the member. */
  unhealthy: WorkloadRef[];
}

/** The answer to `unhealthy` and `healthy`: the workload as resolved, and whether anything changed. */
export interface WorkloadMarkView {
  member: string;
  workload: WorkloadRef;
  unhealthy: boolean;
  /** False when the workload already was in that state. */
  changed: boolean;
}

function view(m: RunningMember): MemberView {
  return {
    name: m.name,
    url: m.url,
    kubeconfig: m.kubeconfig,
    provider: m.config.provider,
    region: m.config.region,
    zones: m.config.zones,
    fault: m.fault ?? null,
    unhealthy: m.unhealthyWorkloads,
  };
}

/** Marks or clears a workload as the request body names it: [status, answer]. */
async function markWorkload(
  member: RunningMember,
  body: { workload?: unknown; namespace?: unknown },
  unhealthy: boolean,
): Promise<[number, unknown]> {
  if (typeof body.workload !== 'string')
    return [
      400,
      { error: 'the request body must name the workload: {"workload": "<kind>/<name>", "namespace": "..."}' },
    ];
  const namespace = body.namespace ?? 'default';
  if (typeof namespace !== 'string' || isDNS1123Label(namespace).length > 0)
    return [400, { error: `namespace must be a DNS label, got ${JSON.stringify(body.namespace)}` }];
  const resolved = await member.resolveWorkload(body.workload, namespace);
  if (resolved.code === 'UnknownKind') return [404, { error: resolved.reason }];
  if (resolved.code !== 'Resolved') return [400, { error: resolved.reason }];
  const changed = unhealthy ? member.markUnhealthy(resolved.ref) : member.markHealthy(resolved.ref);
  const answer: WorkloadMarkView = { member: member.name, workload: resolved.ref, unhealthy, changed };
  return [200, answer];
}

export async function startControlServer(
  socketPath: string,
  members: ReadonlyMap<string, RunningMember>,
): Promise<Server> {
  if (existsSync(socketPath)) rmSync(socketPath, { force: true });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      // The path as sent (no `new URL`: it throws on `//` and would take the process with it).
      const pathname = splitRequestTarget(req.url ?? '/').path;
      const parts = pathname.split('/').filter(Boolean);
      if (req.method === 'GET' && pathname === '/members') return send(200, [...members.values()].map(view));
      if (req.method === 'POST' && parts[0] === 'members' && parts.length === 3) {
        const member = members.get(parts[1]!);
        if (!member)
          return send(404, {
            error: `no simulated member named ${parts[1]}; members: ${[...members.keys()].join(', ') || 'none'}`,
          });
        if (parts[2] === 'recover') {
          member.recover();
          return send(200, view(member));
        }
        if (parts[2] === 'fail' || parts[2] === 'unhealthy' || parts[2] === 'healthy') {
          let body: { mode?: string; delayMs?: number; workload?: unknown; namespace?: unknown };
          try {
            body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
          } catch {
            return send(400, { error: 'the request body must be JSON' });
          }
          if (body === null || typeof body !== 'object' || Array.isArray(body))
            return send(400, { error: 'the request body must be a JSON object' });
          if (parts[2] !== 'fail') {
            markWorkload(member, body, parts[2] === 'unhealthy').then(
              ([status, answer]) => send(status, answer),
              (err: unknown) => send(500, { error: `cannot resolve the workload: ${(err as Error).message}` }),
            );
            return;
          }
          const mode = (body.mode ?? 'unreachable') as FaultMode;
          if (!FAULT_MODES.includes(mode)) return send(400, { error: `mode must be one of ${FAULT_MODES.join(', ')}` });
          member.setFault({ mode, ...(body.delayMs !== undefined ? { delayMs: body.delayMs } : {}) });
          return send(200, view(member));
        }
      }
      send(404, { error: `unknown control request ${req.method} ${pathname}` });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return server;
}

/** Sends a control request to a running `skctl up`. */
export function controlRequest(
  socketPath: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }),
      );
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
