/**
 * Running a narrow for a user: the anchor, the index range to walk (the most selective term
 * picks it: a topic's, a channel's, a conversation's, the user's unread or starred …), the
 * access rules (history mode for channels the user may read back), and the filters of the
 * remaining terms. Only the ranges' keys and the candidate messages are read.
 */
import { badRequest } from '../domain/errors.js';
import { Flag, HISTORICAL_FLAGS, LARGER_THAN_MAX_MESSAGE_ID, type MessageRecord } from '../domain/messages.js';
import type { Term } from '../domain/narrow.js';
import { messageMuted, narrowMatches, type NarrowReader } from '../domain/narrow-predicate.js';
import { isGuest } from '../domain/roles.js';
import { topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { MessageRange } from '../store/messages.js';
import type { Services } from '../services.js';
import { channelHistoryReadable, channelReadable } from './channel-access.js';
import { flagReader, unreadCandidatesRange, userMessagesRange } from './message-state.js';
import { heldIds } from '../store/memory-walk.js';
import { Page, type Found, type RangeRequest, type RangeResult } from './message-page.js';
import { negatedQuery, recordMatches, searchCandidates, searchPlan, type SearchPlan } from './search-walk.js';

export type { Found, RangeRequest, RangeResult } from './message-page.js';

/** Zulip's anchor values: `newest`, `oldest`, `first_unread`, or a message id (clamped). */
export function parseAnchor(value: string | undefined, useFirstUnread: boolean): number | 'first_unread' {
  if (useFirstUnread) return 'first_unread';
  if (value === undefined) throw badRequest("Missing 'anchor' argument.");
  if (value === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (value === 'oldest') return 0;
  if (value === 'first_unread') return 'first_unread';
  if (!/^-?\d+$/.test(value.trim())) throw badRequest('Invalid anchor');
  return Math.min(Math.max(Number(value), 0), LARGER_THAN_MAX_MESSAGE_ID);
}

interface Plan {
  /** The index range to walk; undefined: nothing can match. */
  range: MessageRange | undefined;
  /** Messages the user never received may be shown (with historical flags). */
  history: boolean;
  /** The range holds one of the user's own rows (flags exist for every id in it). */
  ownRange: boolean;
}

const READABLE = 1;
const HISTORY_READABLE = 2;

export class MessageQuery {
  /** The positive `search` operands, when there are any: the walk then follows the full-text index. */
  readonly search: SearchPlan | undefined;
  private readonly plan: Plan;
  /** What the narrow predicate asks about this viewer. */
  private readonly reader: NarrowReader;
  /** The terms but the positive `search` ones, for messages the full-text index found. */
  private readonly termsButSearch: readonly Term[];
  /** The viewer's flags, read marks and reception intervals looked up once per channel and topic. */
  private flagsOf: ((record: MessageRecord) => number | undefined) | undefined;
  private readonly channelAccess = new Map<number, number>();
  private lastChannel = -1;
  private lastAccess = 0;

  constructor(
    private readonly services: Services,
    private readonly viewer: UserRecord,
    private readonly terms: readonly Term[],
  ) {
    this.plan = this.choosePlan();
    // Without history, only messages the viewer holds are visible (see `visible`).
    this.search = searchPlan(services, terms, viewer.id, !this.plan.history);
    const { subscriptions, org } = services;
    const viewerId = viewer.id;
    this.reader = {
      topicPolicy: (channelId, key) => subscriptions.topicPolicy(viewerId, channelId, key),
      channelMuted: (channelId) => subscriptions.subscription(viewerId, channelId)?.isMuted ?? false,
      channel: (channelId) => org.channels.get(channelId),
      matchesSearch: (term, message) => recordMatches(services, term.negated ? negatedQuery(services, term.query) : this.search!.recordQuery, message),
    };
    this.termsButSearch = terms.filter((t) => t.kind !== 'search' || t.negated);
  }

  private positive<K extends Term['kind']>(kind: K): Extract<Term, { kind: K }> | undefined {
    return this.terms.find((t) => t.kind === kind && !t.negated) as Extract<Term, { kind: K }> | undefined;
  }

  private choosePlan(): Plan {
    const userId = this.viewer.id;
    const channel = this.positive('channel');
    const topic = this.positive('topic');
    const channels = this.positive('channels');
    const isTerms = this.terms.filter((t) => t.kind === 'is' && t.what !== 'resolved');
    const channelRecord = channel ? this.services.org.channels.get(channel.channelId) : undefined;
    const history = isTerms.length === 0 && (
      (channelRecord !== undefined && channelHistoryReadable(this.services, this.viewer, channelRecord)) ||
      (channels !== undefined && !isGuest(this.viewer.role))
    );
    const is = (what: string) => this.terms.find((t) => t.kind === 'is' && t.what === what && !t.negated);
    const dm = this.positive('dm');
    const sender = this.positive('sender');
    if (channel && topic) return { range: { of: 'topic', channelId: channel.channelId, topicKey: topicKey(topic.topic) }, history, ownRange: false };
    if (channel) return { range: { of: 'channel', channelId: channel.channelId }, history, ownRange: false };
    if (dm) return { range: dm.key === undefined ? undefined : { of: 'conversation', conversation: dm.key }, history: false, ownRange: false };
    if (is('unread')) return { range: unreadCandidatesRange(this.services, userId), history: false, ownRange: true };
    if (is('starred')) return { range: { of: 'starred', userId }, history: false, ownRange: true };
    if (is('mentioned')) return { range: { of: 'mentioned', userId }, history: false, ownRange: true };
    if (channels && history) return { range: { of: 'all' }, history, ownRange: false };
    if (sender) return { range: { of: 'sender', userId: sender.userId }, history: false, ownRange: false };
    return { range: userMessagesRange(this.services, userId), history: false, ownRange: true };
  }

  /**
   * The message with the user's flags if the user may see it and it matches every term;
   * `searchMatched`: the full-text index already found it for the positive `search` operands.
   */
  candidate(id: number, searchMatched = false): Found | undefined {
    const { messages } = this.services;
    const record = messages.get(id);
    if (!record) return undefined;
    let flags = (this.flagsOf ??= flagReader(this.services, this.viewer.id))(record);
    if (!this.visible(record, flags)) return undefined;
    flags ??= HISTORICAL_FLAGS;
    if (!narrowMatches(searchMatched ? this.termsButSearch : this.terms, record, flags, this.reader)) return undefined;
    return { record, flags };
  }

  private visible(record: MessageRecord, flags: number | undefined): boolean {
    if (record.type === 'private') return flags !== undefined;
    const channelId = record.channelId!;
    let access: number | undefined;
    // Most pages are of one channel: its access is kept beside the map, without a lookup.
    if (channelId === this.lastChannel) access = this.lastAccess;
    else {
      access = this.channelAccess.get(channelId);
      if (access === undefined) this.channelAccess.set(channelId, (access = this.accessTo(channelId)));
      this.lastChannel = channelId;
      this.lastAccess = access;
    }
    return flags !== undefined ? (access & READABLE) !== 0 : this.plan.history && (access & HISTORY_READABLE) !== 0;
  }

  /** What the viewer may read of a channel (READABLE, HISTORY_READABLE), asked once per channel and query. */
  private accessTo(channelId: number): number {
    const channel = this.services.org.channels.get(channelId);
    if (!channel) return 0;
    return (channelReadable(this.services, this.viewer, channel) ? READABLE : 0) |
      (channelHistoryReadable(this.services, this.viewer, channel) ? HISTORY_READABLE : 0);
  }

  /** In a muted channel (unless the topic is unmuted or followed) or a muted topic. */
  muted(record: MessageRecord): boolean {
    return messageMuted(record, this.reader);
  }

  /** Walks the chosen range from `from` in one direction, yielding matching messages. */
  async *walk(reverse: boolean, from: number | undefined, inclusive: boolean, expected?: number): AsyncGenerator<Found> {
    const idTerm = this.positive('id');
    if (idTerm) {
      yield* this.idMatch(idTerm.id, reverse, from, inclusive);
      return;
    }
    if (this.search) {
      for await (const { id, trusted } of searchCandidates(this.services, this.search, this.plan.range, { reverse, from, inclusive, expected })) {
        const found = this.candidate(id, trusted);
        if (found) yield found;
      }
      return;
    }
    if (this.plan.range === undefined) return;
    for await (const id of this.services.messages.ids(this.plan.range, { reverse, from, inclusive, expected })) {
      const found = this.candidate(id);
      if (found) yield found;
    }
  }

  /**
   * The ids `walk` would try, at once, when memory holds the range (store/memory-walk.ts): the
   * page is then read in one loop, without an async generator step (several microtasks) per id
   * and per level; undefined when the store must be read.
   */
  private heldCandidates(reverse: boolean, from: number, inclusive: boolean, expected: number): Iterable<number> | undefined {
    const idTerm = this.positive('id');
    if (idTerm) {
      const id = idTerm.id;
      return (reverse ? (inclusive ? id <= from : id < from) : inclusive ? id >= from : id > from) ? [id] : [];
    }
    if (this.search) return undefined;
    if (this.plan.range === undefined) return [];
    return heldIds(this.services.messages, this.plan.range, { reverse, from, inclusive, expected });
  }

  /** An `id` narrow's one message, when the walk's side of `from` holds it. */
  private idMatch(id: number, reverse: boolean, from: number | undefined, inclusive: boolean): Found[] {
    const inRange = from === undefined || (reverse ? (inclusive ? id <= from : id < from) : inclusive ? id >= from : id > from);
    const found = inRange ? this.candidate(id) : undefined;
    return found ? [found] : [];
  }

  /**
   * The oldest unread message in the narrow, outside muted channels and topics (unless a DM
   * narrow), or undefined; at once when memory holds the candidates. The candidate range holds
   * every unread message but also read ones (rows read ahead of the mark, the sender's own
   * messages), so each one's flags decide.
   */
  firstUnread(): number | undefined | Promise<number | undefined> {
    const dmNarrow = this.terms.some((t) => !t.negated && (t.kind === 'dm' || (t.kind === 'is' && t.what === 'dm')));
    const isFirst = (id: number) => {
      const found = this.candidate(id);
      return found !== undefined && (found.flags & Flag.read) === 0 && (dmNarrow || !this.muted(found.record));
    };
    const range = unreadCandidatesRange(this.services, this.viewer.id);
    const held = heldIds(this.services.messages, range, { reverse: false });
    if (held) {
      for (const id of held) if (isFirst(id)) return id;
      return undefined;
    }
    return (async () => {
      for await (const id of this.services.messages.ids(range, { reverse: false })) if (isFirst(id)) return id;
      return undefined;
    })();
  }

  /** The page around the anchor: at once when memory holds what it reads, else a promise. */
  range(request: RangeRequest): RangeResult | Promise<RangeResult> {
    if (request.anchor !== 'first_unread') return this.pageAt(request.anchor, request);
    const first = this.firstUnread();
    if (first instanceof Promise) return first.then((id) => this.pageAt(id ?? LARGER_THAN_MAX_MESSAGE_ID, request));
    return this.pageAt(first ?? LARGER_THAN_MAX_MESSAGE_ID, request);
  }

  private pageAt(anchor: number, request: RangeRequest): RangeResult | Promise<RangeResult> {
    const page = new Page(anchor, request);
    const before = page.wantsBefore ? this.heldCandidates(true, anchor, false, request.numBefore) : [];
    const after = page.wantsAfter ? this.heldCandidates(false, anchor, true, page.numAfter + 1) : [];
    if (before === undefined || after === undefined) return this.readPage(page, request);
    for (const id of before) {
      const found = this.candidate(id);
      if (found !== undefined && !page.takeBefore(found)) break;
    }
    for (const id of after) {
      const found = this.candidate(id);
      if (found !== undefined && !page.takeAfter(found)) break;
    }
    return page.result();
  }

  private async readPage(page: Page, request: RangeRequest): Promise<RangeResult> {
    const { anchor } = page;
    if (page.wantsBefore) for await (const found of this.walk(true, anchor, false, request.numBefore)) if (!page.takeBefore(found)) break;
    if (page.wantsAfter) for await (const found of this.walk(false, anchor, true, page.numAfter + 1)) if (!page.takeAfter(found)) break;
    return page.result();
  }
}

/** Checks Zulip's limits on a range request. */
export function checkRange(numBefore: number, numAfter: number, includeAnchor: boolean): void {
  if (numBefore + numAfter > LIMITS.maxMessagesPerFetch) throw badRequest(`Too many messages requested (maximum ${LIMITS.maxMessagesPerFetch}).`);
  if (numBefore > 0 && numAfter > 0 && !includeAnchor) throw badRequest('The anchor can only be excluded at an end of the range');
}
