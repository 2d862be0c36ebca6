/** `skctl token`: creates, lists and deletes bootstrap tokens for Pull registration, as `karmadactl token` does. */
import type { KubeObject } from '../api/object.ts';
import {
  BOOTSTRAP_TOKEN_NAMESPACE,
  BOOTSTRAP_TOKEN_SECRET_TYPE,
  bootstrapTokenSecret,
  bootstrapTokenSecretName,
  generateBootstrapToken,
  readBootstrapTokenSecret,
} from '../registration/bootstrap-token.ts';
import { caCertHash } from '../registration/ca-pin.ts';
import { durationFlag, parseFlags, UsageError } from './args.ts';
import { CONTROL_PLANE_FLAGS, controlPlane, type Io, one, serverError } from './cluster-command.ts';
import { formatTable } from './get.ts';

export const TOKEN_HELP = `Manage bootstrap tokens for Pull registration.

Usage:
  skctl token create [--ttl 24h] [--description <text>] [--print-register-command]
  skctl token list
  skctl token delete <token id or token>

Flags:
  --ttl <duration>           lifetime (default 24h; 0 = never expires)
  --print-register-command   print the skctl register command a member runs
  --karmada-kubeconfig <path>, --karmada-context <name>   the control plane's kubeconfig
`;

export async function runToken(args: string[], io: Io): Promise<number> {
  const [verb, ...rest] = args;
  const { values, positionals } = parseFlags('token', rest, {
    ttl: { type: 'string' },
    description: { type: 'string' },
    'print-register-command': { type: 'boolean' },
    ...CONTROL_PLANE_FLAGS,
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help || verb === undefined || verb === 'help' || verb === '--help' || verb === '-h') {
    io.out(TOKEN_HELP);
    return 0;
  }
  const api = controlPlane(values);
  const secretsPath = `/api/v1/namespaces/${BOOTSTRAP_TOKEN_NAMESPACE}/secrets`;
  try {
    switch (verb) {
      case 'create': {
        const ttlMs = durationFlag('token', 'ttl', values.ttl, 24 * 3_600_000)!;
        const token = generateBootstrapToken();
        await api.send(
          'POST',
          secretsPath,
          bootstrapTokenSecret({
            id: token.id,
            secret: token.secret,
            nowMs: Date.now(),
            ttlMs,
            ...(values.description ? { description: String(values.description) } : {}),
          }),
        );
        if (!values['print-register-command']) {
          io.out(token.token);
          return 0;
        }
        const info = (await api.get(`/api/v1/namespaces/kube-public/configmaps/cluster-info`)) as KubeObject;
        const kubeconfig = (info.data as Record<string, string> | undefined)?.kubeconfig ?? '';
        const caData = /certificate-authority-data:\s*(\S+)/.exec(kubeconfig)?.[1];
        const hash = caData
          ? ` --discovery-token-ca-cert-hash ${caCertHash(Buffer.from(caData, 'base64').toString('utf8'))}`
          : '';
        io.out(
          `skctl register ${api.server.host} --token ${token.token}${hash} --cluster-name <name> --kubeconfig <member kubeconfig>`,
        );
        return 0;
      }
      case 'list': {
        const list = (await api.get(secretsPath)) as { items: KubeObject[] };
        const now = Date.now();
        const tokens = list.items
          .filter((s) => (s as { type?: string }).type === BOOTSTRAP_TOKEN_SECRET_TYPE)
          .map((s) => readBootstrapTokenSecret(s, now))
          .filter((t) => t !== undefined);
        if (tokens.length === 0) {
          io.err('No bootstrap tokens found');
          return 0;
        }
        const lines = formatTable({
          kind: 'Table',
          columnDefinitions: ['Token', 'TTL', 'Expires', 'Usages', 'Description', 'Extra Groups'].map((name) => ({
            name,
            type: 'string',
            priority: 0,
          })),
          rows: tokens.map((t) => ({
            cells: [
              `${t.id}.${t.secret}`,
              t.expiresMs === undefined
                ? '<forever>'
                : t.expired
                  ? '<invalid>'
                  : `${Math.round((t.expiresMs - now) / 3_600_000)}h`,
              t.expiresMs === undefined ? '<never>' : new Date(t.expiresMs).toISOString().replace('.000Z', 'Z'),
              t.usages.join(','),
              t.description ?? '<none>',
              t.groups.join(','),
            ],
          })),
        });
        for (const l of lines) io.out(l);
        return 0;
      }
      case 'delete': {
        const target = one(positionals, 'token id or token', 'token delete');
        const id = target.split('.')[0]!;
        await api.send('DELETE', `${secretsPath}/${bootstrapTokenSecretName(id)}`);
        io.out(`bootstrap token "${id}" deleted`);
        return 0;
      }
      default:
        throw new UsageError(`skctl token: unknown subcommand ${JSON.stringify(verb)}\n\n${TOKEN_HELP}`);
    }
  } catch (err) {
    return serverError(io, err);
  }
}
