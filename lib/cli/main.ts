/**
 * skctl — the Serverless Karmada CLI. Commands arrive as the features behind them are built; a
 * command that does not exist yet says so rather than pretending.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config/validate.ts';
import { DataDirInUseError } from '../local/lock.ts';
import { UsageError } from './args.ts';
import type { Io } from './cluster-command.ts';
import { runSim, SIM_HELP } from './sim.ts';
import { runUp, UP_HELP } from './up.ts';

const HELP = `skctl — Serverless Karmada: Karmada's multi-cluster control plane on AWS Lambda, SQS and DynamoDB.

Usage: skctl <command> [flags]

Commands:
  up        run the local control plane until Ctrl-C (npm start)
  get       display resources as kubectl get does (tables, -o yaml|json|name|wide)
  join      join a member cluster in Push mode (from its kubeconfig)
  unjoin    remove a member cluster
  token     create, list and delete bootstrap tokens for Pull registration
  register  register a member cluster in Pull mode and run its agent
  agent     run the Pull-mode agent of a registered member cluster
  proxy-kubeconfig  write a kubeconfig for the global proxy (or one member's cluster proxy)
  sim       make a simulated member cluster fail or recover (list, fail, recover)
  version   print the version
  help      show help for a command

Run 'skctl <command> --help' for a command's flags.
`;

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/**
 * Resolves on the first SIGINT/SIGTERM. Ctrl-C under `npm start` arrives twice (the terminal signals
 * the process group and npm forwards it too), so repeats within 2 s count as the same request; a
 * signal after that exits at once.
 */
function stopSignal(err: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    let requestedAt: number | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      if (requestedAt !== undefined) {
        if (Date.now() - requestedAt < 2000) return;
        err(
          `${signal} again: exiting without a clean shutdown (queued messages are healed by the resync at next start)`,
        );
        process.exit(130);
      }
      requestedAt = Date.now();
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

type ClusterCommand = { help: string; run: (args: string[], io: Io) => Promise<number> };

/** The member-cluster commands, each loaded on demand (with the clients it needs). */
const CLUSTER_COMMANDS: Record<string, () => Promise<ClusterCommand>> = {
  join: async () => {
    const m = await import('./join.ts');
    return { help: m.JOIN_HELP, run: m.runJoin };
  },
  unjoin: async () => {
    const m = await import('./unjoin.ts');
    return { help: m.UNJOIN_HELP, run: m.runUnjoin };
  },
  token: async () => {
    const m = await import('./token.ts');
    return { help: m.TOKEN_HELP, run: m.runToken };
  },
  register: async () => {
    const m = await import('./register.ts');
    return { help: m.REGISTER_HELP, run: m.runRegister };
  },
  agent: async () => {
    const m = await import('./agent.ts');
    return { help: m.AGENT_HELP, run: m.runAgent };
  },
  'proxy-kubeconfig': async () => {
    const m = await import('./proxy-kubeconfig.ts');
    return { help: m.PROXY_KUBECONFIG_HELP, run: m.runProxyKubeconfig };
  },
};

export async function main(argv: string[]): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const err = (line: string) => process.stderr.write(`${line}\n`);
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case 'help':
      case '-h':
      case '--help':
        if (rest[0] === 'up') out(UP_HELP);
        else if (rest[0] === 'sim') out(SIM_HELP);
        else if (rest[0] === 'get') out((await import('./get.ts')).GET_HELP);
        else if (rest[0] && Object.hasOwn(CLUSTER_COMMANDS, rest[0])) out((await CLUSTER_COMMANDS[rest[0]]!()).help);
        else out(HELP);
        return 0;
      case 'version':
      case '--version':
        out(`skctl ${version()}`);
        return 0;
      case 'up':
        return await runUp(rest, { out, stopRequested: stopSignal(err) });
      case 'sim':
        return await runSim(rest, out);
      case 'get':
        // Loaded on demand: @kubernetes/client-node takes ~120 ms to import, which skctl up does not need.
        return await (await import('./get.ts')).runGet(rest, out, err);
      case 'join':
      case 'unjoin':
      case 'token':
      case 'register':
      case 'agent':
      case 'proxy-kubeconfig': {
        const { run } = await CLUSTER_COMMANDS[command]!();
        return await run(rest, { out, err, stopRequested: stopSignal(err) });
      }
      default:
        err(`skctl: unknown command ${JSON.stringify(command)}\n\n${HELP}`);
        return 2;
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError || e instanceof DataDirInUseError) {
      err(e.message);
      return 2;
    }
    if ((e as Error).name === 'UnreachableError') {
      err((e as Error).message);
      return 1;
    }
    err(`skctl: ${(e as Error).stack ?? e}`);
    return 1;
  }
}
