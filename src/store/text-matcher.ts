/**
 * Search rules applied to text that is not (or not yet) in the index: an in-memory SQLite FTS5
 * table with the index's own tokenizer answers whether a message matches a query, marks the
 * matched words of its HTML, and gives a word's English stem (SQLite's porter tokenizer), so
 * that the index, the not-yet-indexed tail and the highlights agree by construction.
 */
import BetterSqlite3 from 'better-sqlite3';
import { MARK_CLOSE, MARK_OPEN, prepareText, renderHighlights } from '../domain/search-text.js';

/** The tokenizer of the index and of this matcher: Unicode words, accents folded, no stemming. */
export const TOKENIZER = 'unicode61 remove_diacritics 2';

export interface SearchDocument {
  content: string;
  topic: string;
  scope: string;
}

export class TextMatcher {
  private readonly db = new BetterSqlite3(':memory:');
  private readonly stems = new Map<string, string>();
  private readonly insertDoc;
  private readonly matchingDocs;
  private readonly clearDocs;
  private readonly marked;
  private readonly insertWord;
  private readonly wordStem;
  private readonly clearWords;

  constructor() {
    this.db.exec(`
      CREATE VIRTUAL TABLE doc USING fts5(content, topic, scope, tokenize='${TOKENIZER}');
      CREATE VIRTUAL TABLE word USING fts5(w, tokenize='porter ${TOKENIZER}');
      CREATE VIRTUAL TABLE word_terms USING fts5vocab(word, 'row');
    `);
    this.insertDoc = this.db.prepare<[number, string, string, string]>('INSERT INTO doc(rowid, content, topic, scope) VALUES (?, ?, ?, ?)');
    this.matchingDocs = this.db.prepare<[string], { rowid: number }>('SELECT rowid FROM doc WHERE doc MATCH ?');
    this.clearDocs = this.db.prepare('DELETE FROM doc');
    this.marked = this.db.prepare<[string], { rowid: number; content: string; topic: string }>(
      `SELECT rowid, highlight(doc, 0, '${MARK_OPEN}', '${MARK_CLOSE}') AS content, highlight(doc, 1, '${MARK_OPEN}', '${MARK_CLOSE}') AS topic FROM doc WHERE doc MATCH ?`,
    );
    this.insertWord = this.db.prepare<[string]>('INSERT INTO word(w) VALUES (?)');
    this.wordStem = this.db.prepare<[], { term: string }>('SELECT term FROM word_terms LIMIT 1');
    this.clearWords = this.db.prepare('DELETE FROM word');
  }

  /** A word's English stem as SQLite's porter tokenizer computes it (cached; the vocabulary of queries is small). */
  stem(word: string): string {
    let stem = this.stems.get(word);
    if (stem === undefined) {
      this.insertWord.run(word);
      stem = this.wordStem.get()?.term ?? word;
      this.clearWords.run();
      if (this.stems.size > 10_000) this.stems.clear();
      this.stems.set(word, stem);
    }
    return stem;
  }

  /** Which of the documents match an FTS5 query (by position). */
  matches(query: string, documents: readonly SearchDocument[]): boolean[] {
    const found = new Array<boolean>(documents.length).fill(false);
    if (documents.length === 0) return found;
    try {
      documents.forEach((doc, i) => this.insertDoc.run(i + 1, prepareText(doc.content), prepareText(doc.topic), doc.scope));
      for (const { rowid } of this.matchingDocs.iterate(query)) found[rowid - 1] = true;
    } finally {
      this.clearDocs.run();
    }
    return found;
  }

  /**
   * Messages' HTML and topics (HTML-escaped) with the words that a query matches wrapped in
   * Zulip's highlight span, by position; undefined where the query matches neither (they are then
   * shown as they are). One table fill and one query for the whole page: per message, the
   * statement overhead cost five times the highlighting.
   */
  highlight(query: string, documents: readonly { html: string; topicHtml: string }[]): ({ content: string; topic: string } | undefined)[] {
    const found = new Array<{ content: string; topic: string } | undefined>(documents.length);
    if (documents.length === 0) return found;
    try {
      this.fill(documents);
      for (const row of this.marked.iterate(query)) found[row.rowid - 1] = { content: renderHighlights(row.content), topic: renderHighlights(row.topic) };
    } finally {
      this.clearDocs.run();
    }
    return found;
  }

  private readonly fill = this.db.transaction((documents: readonly { html: string; topicHtml: string }[]) => {
    documents.forEach((doc, i) => this.insertDoc.run(i + 1, prepareText(doc.html), prepareText(doc.topicHtml), ''));
  });

  close(): void {
    this.db.close();
  }
}
