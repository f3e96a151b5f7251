/**
 * Alert words: Zulip's rules for a user's list (trimmed, no duplicates whatever their case, at
 * most 100 characters each) and the matcher that finds, in one pass over a message, every user one of
 * whose words it contains (an Aho-Corasick automaton over all the organization's words, as
 * Zulip's `realm_alert_words_automaton`).
 */
import { badRequest } from './errors.js';

export const MAX_ALERT_WORD_LENGTH = 100;

/** Characters that may stand right before a word for it to count (else it is part of a longer word). */
const ALLOWED_BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
/** And right after it. */
const ALLOWED_AFTER = new Set([' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/**
 * The user's list after adding `words`, as Zulip: trimmed, blanks dropped, compared without case;
 * a new word keeps the case it was given (the last spelling of it in one request), in the order first given.
 */
export function withAlertWords(current: readonly string[], words: readonly string[]): string[] {
  words.forEach((word, index) => {
    if ([...word].length > MAX_ALERT_WORD_LENGTH) throw badRequest(`alert_words[${index}] is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`);
  });
  const have = new Set(current.map((word) => word.toLowerCase()));
  const added = new Map<string, string>();
  for (const word of words) {
    const clean = word.trim();
    const key = clean.toLowerCase();
    if (clean === '' || have.has(key)) continue;
    added.set(key, clean);
  }
  return [...current, ...added.values()];
}

/** The user's list after removing `words` (without regard to case; unknown ones are ignored). */
export function withoutAlertWords(current: readonly string[], words: readonly string[]): string[] {
  const gone = new Set(words.map((word) => word.toLowerCase()));
  return current.filter((word) => !gone.has(word.toLowerCase()));
}

interface Node {
  next: Map<string, number>;
  fail: number;
  /** Lengths (in UTF-16 units) of the words ending here, with their users; the failure chain's are added by `outputs`. */
  words: { length: number; users: number[] }[];
}

/** The answer when no one has alert words (read-only: shared by every message). */
const NO_ONE: ReadonlySet<number> = new Set<number>();

/**
 * Every word of every user in one automaton. Built when words change (in time their total
 * length); `alerted` reads a message once, whatever the number of users and words.
 */
export class AlertWordMatcher {
  private readonly nodes: Node[] = [{ next: new Map(), fail: 0, words: [] }];

  constructor(wordsByUser: Iterable<[userId: number, words: readonly string[]]>) {
    const usersByWord = new Map<string, number[]>();
    for (const [userId, words] of wordsByUser) {
      for (const word of words.map((w) => w.toLowerCase())) {
        const users = usersByWord.get(word);
        if (users) users.push(userId);
        else usersByWord.set(word, [userId]);
      }
    }
    for (const [word, users] of usersByWord) this.insert(word, users);
    this.link();
  }

  get empty(): boolean {
    return this.nodes.length === 1;
  }

  private insert(word: string, users: number[]): void {
    let state = 0;
    for (const char of word) {
      let next = this.nodes[state].next.get(char);
      if (next === undefined) {
        next = this.nodes.length;
        this.nodes.push({ next: new Map(), fail: 0, words: [] });
        this.nodes[state].next.set(char, next);
      }
      state = next;
    }
    this.nodes[state].words.push({ length: word.length, users });
  }

  /** Breadth-first failure links; each node inherits the words of its failure target. */
  private link(): void {
    const queue: number[] = [...this.nodes[0].next.values()];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      for (const [char, child] of this.nodes[state].next) {
        let fail = this.nodes[state].fail;
        while (fail !== 0 && !this.nodes[fail].next.has(char)) fail = this.nodes[fail].fail;
        const target = this.nodes[fail].next.get(char);
        this.nodes[child].fail = target !== undefined && target !== child ? target : 0;
        this.nodes[child].words = [...this.nodes[child].words, ...this.nodes[this.nodes[child].fail].words];
        queue.push(child);
      }
    }
  }

  /** The users one of whose words `content` contains as a whole word (case-insensitively). */
  alerted(content: string): ReadonlySet<number> {
    // No user has alert words: every message would build an empty set of its own.
    if (this.empty) return NO_ONE;
    const found = new Set<number>();
    const text = content.toLowerCase();
    let state = 0;
    let index = 0;
    for (const char of text) {
      index += char.length;
      while (state !== 0 && !this.nodes[state].next.has(char)) state = this.nodes[state].fail;
      state = this.nodes[state].next.get(char) ?? 0;
      for (const { length, users } of this.nodes[state].words) {
        const start = index - length;
        if (start > 0 && !ALLOWED_BEFORE.has(text[start - 1])) continue;
        if (index < text.length && !ALLOWED_AFTER.has(text[index])) continue;
        for (const userId of users) found.add(userId);
      }
    }
    return found;
  }
}
