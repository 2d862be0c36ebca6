/**
 * The local control channel of `skctl up`: HTTP over a Unix socket (file permissions keep it to the
 * local user) through which `skctl sim fail|recover|list` drive the simulated members.
 */
import { existsSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { FAULT_MODES, type FaultMode, type SimulatedMember } from './member.ts';
import { splitRequestTarget } from '../kube/base/request-guard.ts';

export interface MemberView {
  name: string;
  url: string;
  kubeconfig: string;
  provider: string;
  region: string;
  zones: string[];
  fault: { mode: FaultMode; delayMs?: number } | null;
}

function view(m: SimulatedMember): MemberView {
  return {
    name: m.name,
    url: m.url,
    kubeconfig: m.kubeconfig,
    provider: m.config.provider,
    region: m.config.region,
    zones: m.config.zones,
    fault: m.fault ?? null,
  };
}

export async function startControlServer(
  socketPath: string,
  members: ReadonlyMap<string, SimulatedMember>,
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
        if (parts[2] === 'fail') {
          let body: { mode?: string; delayMs?: number };
          try {
            body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
          } catch {
            return send(400, { error: 'the request body must be JSON' });
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
