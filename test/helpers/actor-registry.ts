/** An actor registry on a temporary database, reopened as a restart would: for the actors' unit tests. */
import { rmSync } from 'node:fs';
import type { Test } from 'tap';
import type { AnyStateMachine } from 'xstate';
import { ActorRegistry, type ActorKind } from '../../src/actors/registry.js';
import { ActorSnapshots } from '../../src/store/actor-snapshots.js';
import { Database } from '../../src/store/database.js';
import { tempDataDir } from './server.js';

/** Returns `open()`: each call opens the same directory with a fresh registry of `kinds`, restored from it. */
export function registryOnDisk(t: Test, kinds: readonly ActorKind<AnyStateMachine>[]) {
  const dir = tempDataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return async () => {
    const db = await Database.open(dir, { sync: false });
    const registry = new ActorRegistry(new ActorSnapshots(db, 1));
    for (const kind of kinds) registry.register(kind);
    await registry.restore();
    return { db, registry };
  };
}
