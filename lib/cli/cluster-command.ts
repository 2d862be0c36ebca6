/**
 * What skctl's member-cluster commands (join, unjoin, token, register, agent) share: their output,
 * the control-plane flags and client, small flag readers, and how a server error is printed.
 */
import { RegistrationError } from '../agent/register.ts';
import { JoinError } from '../members/join.ts';
import { UsageError } from './args.ts';
import { KubeApiError, KubeClient, kubeconfigPath } from './kube-client.ts';

/** Where a command writes, and (for the long-running ones) when it is asked to stop. */
export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  stopRequested?: Promise<void>;
}

/** The flags that name the control plane's kubeconfig. */
export const CONTROL_PLANE_FLAGS = {
  'karmada-kubeconfig': { type: 'string' },
  'karmada-context': { type: 'string' },
} as const;

/** A client of the control plane the flags name. */
export function controlPlane(values: Record<string, unknown>): KubeClient {
  return new KubeClient(
    kubeconfigPath(values['karmada-kubeconfig'] as string | undefined),
    values['karmada-context'] as string | undefined,
  );
}

/** `--cluster-zones a,b` as a list, or undefined when not given. */
export function zones(value: unknown): string[] | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  return value
    .split(',')
    .map((z) => z.trim())
    .filter(Boolean);
}

/** The one positional argument a command takes; a UsageError otherwise. */
export function one(positionals: string[], what: string, command: string): string {
  if (positionals.length !== 1)
    throw new UsageError(`skctl ${command}: give exactly one ${what}\n  see: skctl ${command} --help`);
  return positionals[0]!;
}

/** Prints a KubeApiError as kubectl does; returns the exit code. */
export function serverError(io: Io, err: unknown): number {
  if (err instanceof KubeApiError) {
    io.err(
      err.code === 401
        ? 'error: You must be logged in to the server (Unauthorized)'
        : `Error from server (${err.reason}): ${err.message}`,
    );
    return 1;
  }
  if (err instanceof JoinError || err instanceof RegistrationError) {
    io.err(`error: ${err.message}`);
    return 1;
  }
  throw err;
}
