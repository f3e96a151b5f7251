/**
 * Keeps the server under test and the load generator off each other's core: the server (Parley
 * or the bare baseline) runs on the last allowed core, the runner and the load generator on the
 * first, through `taskset` (util-linux).
 */
import { execFileSync } from 'node:child_process';

export interface Pinning {
  /** Core of the server under test; undefined when not pinned. */
  serverCore?: number;
  /** Core of the runner and the load generator (and the long-poll clients, which run in the runner). */
  clientCore?: number;
  /** How it was pinned, in words, for the results. */
  description: string;
}

function parseCpuList(list: string): number[] {
  const cores: number[] = [];
  for (const part of list.trim().split(',')) {
    const [from, to] = part.split('-').map(Number);
    for (let core = from; core <= (to ?? from); core++) cores.push(core);
  }
  return cores;
}

/** Chooses the cores and pins this process (every thread) to the client's core. */
export function pinRunner(): Pinning {
  let allowed: number[];
  try {
    const output = execFileSync('taskset', ['-p', '-c', String(process.pid)], { encoding: 'utf8' });
    allowed = parseCpuList(output.slice(output.lastIndexOf(':') + 1));
  } catch {
    return { description: 'not pinned: taskset (util-linux) is missing' };
  }
  if (allowed.length < 2) return { description: `not pinned: only core ${allowed.join(',')} is available` };
  const clientCore = allowed[0];
  const serverCore = allowed[allowed.length - 1];
  execFileSync('taskset', ['-a', '-p', '-c', String(clientCore), String(process.pid)], { stdio: 'ignore' });
  return { serverCore, clientCore, description: `server on core ${serverCore}, load generator and runner on core ${clientCore} (taskset)` };
}

/** The command line that runs `command` on `core` (unchanged when not pinned). */
export function onCore(core: number | undefined, command: string, args: readonly string[]): [string, string[]] {
  return core === undefined ? [command, [...args]] : ['taskset', ['-c', String(core), command, ...args]];
}

let chosen: Pinning | undefined;

/** The run's pinning; the runner calls `pinRunner` once at start, before any server is spawned. */
export function pinning(): Pinning {
  chosen ??= pinRunner();
  return chosen;
}

/** The cores of both sides, for reading how busy they were. */
export function measuredCores(): number[] {
  const { serverCore, clientCore } = pinning();
  return serverCore === undefined || clientCore === undefined ? [] : [clientCore, serverCore];
}
