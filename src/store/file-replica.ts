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
}

/** Makes an organization's replica (the server's parts carry it in cluster mode). */
export type FileReplicas = (realmId: number) => FileReplica;
