/**
 * A second home for an organization's uploaded bytes outside this node (cluster mode: a
 * JetStream object store, src/cluster/files-bucket.ts). The embedded server has none, and its
 * file store then never calls out. Keyed by the bytes' SHA-256 within one organization.
 */
export interface FileReplica {
  /** Resolves once the bytes are replicated (acknowledged by a majority); rejects when they could not be. */
  put(sha: string, data: Buffer): Promise<void>;
  /** The bytes, or undefined when the replica holds none under this hash. */
  get(sha: string): Promise<Buffer | undefined>;
  /** Removes the bytes; failures are the replica's to report (the local removal does not wait). */
  delete(sha: string): void;
  /** The organization's objects in the replica, with when each was put. */
  list(): Promise<ReplicaObject[]>;
  /**
   * Deletes objects no record names (a sweep): nothing unless this node still serves the
   * organization (checked before each deletion), and each only if `unnamed` still says so right
   * before it goes. Resolves with how many went.
   */
  deleteUnnamed(shas: readonly string[], unnamed: (sha: string) => boolean): Promise<number>;
  /** How often the replica is swept, and how old an object must be to be swept (an upload under way is younger). */
  readonly sweep: { everyMs: number; graceMs: number };
}

export interface ReplicaObject {
  sha: string;
  /** When it was put, in ms since the epoch (by the putting node's clock). */
  putAt: number;
}

/** Makes an organization's replica (the server's parts carry it in cluster mode). */
export type FileReplicas = (realmId: number) => FileReplica;
