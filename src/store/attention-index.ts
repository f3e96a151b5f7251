/**
 * What sending a message asks about everyone at once, derived from the user records: the one
 * alert-word matcher of the organization, and who muted a sender. Rebuilt only when a user's
 * alert words or muted users changed (records are replaced on change, so a changed list is a
 * new array), never per message.
 */
import { AlertWordMatcher } from '../domain/alert-words.js';
import type { UserRecord } from '../domain/users.js';
import type { UserDirectory } from './users.js';

export class AttentionIndex {
  private seenVersion = -1;
  private readonly seenWords = new Map<number, UserRecord['alertWords']>();
  private readonly seenMuted = new Map<number, UserRecord['mutedUsers']>();
  private matcher = new AlertWordMatcher([]);
  private muters = new Map<number, ReadonlySet<number>>();

  constructor(private readonly users: UserDirectory) {}

  /** The matcher over every active user's alert words. */
  alertWords(): AlertWordMatcher {
    this.refresh();
    return this.matcher;
  }

  /** The active users who muted `senderId`. */
  mutersOf(senderId: number): ReadonlySet<number> {
    this.refresh();
    return this.muters.get(senderId) ?? EMPTY;
  }

  private refresh(): void {
    if (this.seenVersion === this.users.version) return;
    this.seenVersion = this.users.version;
    let wordsChanged = false;
    let mutedChanged = false;
    const present = new Set<number>();
    for (const user of this.users.all()) {
      present.add(user.id);
      const words = user.isActive ? user.alertWords : undefined;
      const muted = user.isActive ? user.mutedUsers : undefined;
      if (this.seenWords.get(user.id) !== words) {
        wordsChanged = true;
        this.seenWords.set(user.id, words);
      }
      if (this.seenMuted.get(user.id) !== muted) {
        mutedChanged = true;
        this.seenMuted.set(user.id, muted);
      }
    }
    for (const id of [...this.seenWords.keys()]) {
      if (present.has(id)) continue;
      this.seenWords.delete(id);
      this.seenMuted.delete(id);
      wordsChanged = mutedChanged = true;
    }
    if (wordsChanged) {
      const lists: [number, readonly string[]][] = [];
      for (const [id, words] of this.seenWords) if (words && words.length > 0) lists.push([id, words]);
      this.matcher = new AlertWordMatcher(lists);
    }
    if (mutedChanged) {
      const muters = new Map<number, Set<number>>();
      for (const [muterId, list] of this.seenMuted) {
        for (const { id } of list ?? []) {
          const set = muters.get(id);
          if (set) set.add(muterId);
          else muters.set(id, new Set([muterId]));
        }
      }
      this.muters = muters;
    }
  }
}

const EMPTY: ReadonlySet<number> = new Set();
