/**
 * What belongs to one organization in a data directory, for its backup and restore: every key
 * under its id, its entries in the server's index (by id, by subdomain, its wake mark), the
 * server-wide counters (whose values a restore must never move back), and the uploaded files its
 * attachment and custom emoji records name (the file store is shared and content-addressed).
 */
import type { AttachmentRecord } from '../domain/uploads.js';
import type { RealmEmojiRecord } from '../domain/realm-emoji.js';
import { decode } from './codec.js';
import { prefixEnd, realmKeys, serverKeys } from './keys.js';

/** Every key of the organization, as a range. */
export function organizationRange(realmId: number): { gte: string; lt: string } {
  const prefix = realmKeys(realmId).prefix;
  return { gte: prefix, lt: prefixEnd(prefix) };
}

/** The server's entries that list the organization (each present or not). */
export function indexKeysOf(realmId: number, subdomain: string): string[] {
  return [serverKeys.realmIndex(realmId), serverKeys.subdomain(subdomain), serverKeys.wake(realmId)];
}

/** Server-wide counters: a restored organization's ids were handed out below their values. */
export const SERVER_COUNTER_KEYS = [serverKeys.counter('realm'), serverKeys.counter('message')];

/** The server index's prefix (which organizations a backup holds). */
export const INDEX_PREFIX = serverKeys.realmIndexPrefix;

/**
 * Collects the hashes of stored files named by the organization's raw entries: call `take` on
 * each entry of its range; `hashes` holds what the records name.
 */
export function fileHashCollector(realmId: number): { take(key: Buffer, value: Buffer): void; hashes: Set<string> } {
  const keys = realmKeys(realmId);
  const attachment = Buffer.from(keys.attachmentPrefix);
  const emoji = Buffer.from(keys.realmEmojiPrefix);
  const hashes = new Set<string>();
  const startsWith = (key: Buffer, prefix: Buffer) => key.length >= prefix.length && key.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
  return {
    hashes,
    take(key, value) {
      if (startsWith(key, attachment)) {
        hashes.add(decode<AttachmentRecord>(value).sha256);
      } else if (startsWith(key, emoji)) {
        const record = decode<RealmEmojiRecord>(value);
        hashes.add(record.sha256);
        if (record.still) hashes.add(record.still.sha256);
      }
    },
  };
}

/**
 * Collects the hashes of stored files named by every organization's raw entries (a full backup):
 * `hashesOf(id)` holds what the organization's records name.
 */
export function allFileHashesCollector(): { take(key: Buffer, value: Buffer): void; hashesOf(realmId: number): ReadonlySet<string> } {
  const collectors = new Map<number, ReturnType<typeof fileHashCollector>>();
  const BANG = 0x21;
  return {
    take(key, value) {
      // An organization's keys start with its id and '!'; the server's (`server!…`) do not.
      let realmId = 0;
      let at = 0;
      for (; at < key.length && at < 16; at++) {
        const byte = key[at]!;
        if (byte === BANG) break;
        if (byte < 0x30 || byte > 0x39) return;
        realmId = realmId * 10 + (byte - 0x30);
      }
      if (at === 0 || key[at] !== BANG) return;
      let collector = collectors.get(realmId);
      if (!collector) collectors.set(realmId, (collector = fileHashCollector(realmId)));
      collector.take(key, value);
    },
    hashesOf: (realmId) => collectors.get(realmId)?.hashes ?? new Set(),
  };
}

/** Collects the organizations a full backup's entries list (call `take` on every entry). */
export function indexCollector(): { take(key: Buffer, value: Buffer): void; organizations: { id: number; subdomain: string }[] } {
  const prefix = Buffer.from(INDEX_PREFIX);
  const organizations: { id: number; subdomain: string }[] = [];
  return {
    organizations,
    take(key, value) {
      if (key.length < prefix.length || key.compare(prefix, 0, prefix.length, 0, prefix.length) !== 0) return;
      const entry = decode<{ id: number; subdomain?: string }>(value);
      // Entries from before subdomains are the root organization's.
      organizations.push({ id: entry.id, subdomain: entry.subdomain ?? '' });
    },
  };
}

/** Whether a stored file (`blobs/ab/<sha>` or `thumbnails/ab/<sha>-<format>`) is one of `hashes`. */
export function storedFileOf(hashes: ReadonlySet<string>): (name: string) => boolean {
  return (name) => {
    const base = name.slice(name.lastIndexOf('/') + 1);
    const dash = base.indexOf('-');
    return hashes.has(dash < 0 ? base : base.slice(0, dash));
  };
}
