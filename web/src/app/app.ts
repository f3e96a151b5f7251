/**
 * The signed-in client: the server's state as registered, message lists, unread counts, the
 * current narrow, and what the person does (send, edit, react, mark read). Each part of this state
 * has a version signal (change-scope.ts): views read the versions of what they show (`watch`), and
 * a change moves only the versions of what it changed (a fetched page re-renders the feed, a read
 * mark the feed and the counts, not the whole page).
 */
import { batch, signal } from '@preact/signals';
import { Api, ApiFailure, saveSession, type Credentials } from '../api/client.js';
import { EventQueue, type Registration } from '../state/event-queue.js';
import { MessageStore, type FetchedPage } from '../state/messages.js';
import { apiNarrow, HOME, narrowKey, type Narrow } from '../state/narrow.js';
import type { Message, ServerEvent, Subscription, User } from '../state/types.js';
import { Unread, type UnreadCounts, type UnreadSeed } from '../state/unread.js';
import { TopicPolicies, VisibilityPolicy, type UserTopic } from '../state/topic-policy.js';
import { sortDrafts, sortScheduled, type Draft, type ScheduledMessage } from '../state/drafts.js';
import type { Conversation } from '../state/feed.js';
import { applyEvent } from './live.js';
import { EmojiLoader } from './emoji.js';
import { catchUp, newestPage, prefetchFirstPage, type FirstPage } from './first-page.js';
import { namesIn, type SeenNames } from '../state/seen-names.js';
import { channelsOf, REGISTER_PARAMS } from './register-params.js';
import { whenIdle } from './idle.js';
import { NarrowSwitch } from '../state/narrow-switch.js';
import { ReadMarks } from './read-marks.js';
import { bump, countsKey, newVersions, ROW_CONTEXT_EVENTS, SCOPES, scopesOf, type Scope } from './change-scope.js';

export const PAGE_SIZE = 100;
/** When the emoji data loads unless asked for sooner (after the first screen and the first clicks). */
const EMOJI_AFTER_MS = 3000;
const PRESENCE_EVERY_MS = 60_000;
/** How long a switch waits for its page before the narrow is shown without it ("Loading…"). */
const SWITCH_WAITS_MS = 100;

export interface RealmInfo {
  name: string;
  description: string;
  emoji: Record<string, { id: string; name: string; source_url: string; deactivated: boolean }>;
  /** Zulip's `realm_topics_policy` etc. are not needed here; only what the views show. */
  maxFileUploadMb: number;
}

export class App {
  readonly api: Api;
  readonly selfId: number;
  /** One version per part of the state below, moved when that part changes; views read them through `watch`. */
  readonly versions = newVersions();
  /**
   * Moves when something a feed row shows besides its message changes: names, roles, channels,
   * topic policies, custom emoji (a registration, or such an event). Memoised rows compare it.
   */
  rowContext = 0;
  /** The emoji data (picker, autocompletion): loaded after the start or when first needed. */
  readonly emoji = new EmojiLoader();
  readonly status = signal<'loading' | 'connected' | 'reconnecting' | 'failed'>('loading');
  readonly error = signal('');
  readonly narrow = signal<Narrow>(HOME);
  readonly loading = signal(false);
  /** The message cursor: the selected message of the current narrow (j/k, arrows, click), if any. */
  readonly selected = signal<number | undefined>(undefined);

  messages: MessageStore;
  unread: Unread;
  users = new Map<number, User>();
  subscriptions = new Map<number, Subscription>();
  /** Channels known but not subscribed to (for browsing). */
  channels = new Map<number, { stream_id: number; name: string; description: string; invite_only: boolean }>();
  topics = new Map<number, { name: string; max_id: number }[]>();
  realm: RealmInfo = { name: 'Parley', description: '', emoji: {}, maxFileUploadMb: 25 };
  presence = new Map<number, number>();
  /** Who is typing where (a conversation key, as state/feed.ts makes them), until when. */
  typing: { userId: number; key: string; until: number }[] = [];
  userSettings: Record<string, unknown> = {};
  topicPolicies = new TopicPolicies();
  drafts: Draft[] = [];
  scheduled: ScheduledMessage[] = [];
  registration: Registration | undefined;
  queue: EventQueue;
  /** Notifies (browser notifications) for new messages; set by the notifier. */
  onMessage: ((message: Message, flags: readonly string[]) => void) | undefined;
  private readonly readMarks = new ReadMarks(this);
  private mutingChangedSince = false;
  /** Narrows whose first page is being fetched (not asked twice), with when it is here. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Switches to a narrow show it with its first page (state/narrow-switch.ts). */
  private readonly switcher = new NarrowSwitch<Narrow>((narrow) => this.show(narrow), SWITCH_WAITS_MS);
  private readonly topicsInFlight = new Set<number>();
  /** Settles when the newest page asked for by `load` is here (or failed). */
  private pageAsked: Promise<void> = Promise.resolve();
  private presenceTimer: ReturnType<typeof setInterval> | undefined;
  private countsCache: { key: string; counts: UnreadCounts } | undefined;
  /** The first screen's page, asked for alongside the first registration. */
  private firstPage: FirstPage | undefined;
  /** Names read from the first page's messages: shown until the registration brings the real lists. */
  private namesSeen: SeenNames = { users: new Map(), channels: new Map() };

  constructor(readonly credentials: Credentials & { userId: number }, private readonly signOut: () => void) {
    this.api = new Api(credentials);
    this.selfId = credentials.userId;
    this.messages = new MessageStore(this.selfId, (m) => this.messageMuted(m));
    this.unread = new Unread(this.selfId);
    this.queue = new EventQueue(
      {
        register: () => this.api.post<Registration>('/register', REGISTER_PARAMS),
        poll: (queueId, lastEventId, signal) => this.api.get<{ events: ServerEvent[] }>('/events', { queue_id: queueId, last_event_id: lastEventId }, signal).then((a) => a.events),
      },
      {
        onRegistered: (registration, again) => this.registered(registration, again),
        onEvents: (events) => this.applyEvents(events),
        onStatus: (status) => (this.status.value = status),
      },
    );
  }

  start(): void {
    // The first screen's page is asked for before the registration, not after it: the server answers
    // the small request first, and the page is shown as soon as it is here (showFirstPage).
    this.firstPage = prefetchFirstPage(this.api, PAGE_SIZE);
    if (this.firstPage) void this.showFirstPage(this.firstPage);
    this.queue.run().catch((error: unknown) => {
      if (error instanceof ApiFailure && error.status === 401) this.signOut();
      else this.fail(error);
    });
    whenIdle(() => this.reportPresence());
    this.presenceTimer = setInterval(() => this.reportPresence(), PRESENCE_EVERY_MS);
  }

  stop(): void {
    this.queue.stop();
    clearInterval(this.presenceTimer);
  }

  /** Others see this person active while the page is in front of them, idle otherwise (Zulip's client reports every minute). */
  private reportPresence(): void {
    const status = document.visibilityState === 'visible' ? 'active' : 'idle';
    this.api.post('/users/me/presence', { status, slim_presence: true }).catch(() => {});
  }

  /** What a view calls in its render to re-render when these parts of the state change (and only then). */
  watch(...scopes: Scope[]): void {
    for (const scope of scopes) void this.versions[scope].value;
  }

  /** These parts of the state changed (all of them when none is named): the views that show them re-render, once. */
  changed(...scopes: Scope[]): void {
    bump(this.versions, scopes.length ? scopes : SCOPES);
  }

  /**
   * Unread counts, computed again only when what they depend on changed: the unread messages,
   * the topic policies, which channels are muted (10,000 unread messages cost tens of ms a count,
   * and the sidebar, the title and the shortcuts ask on every render).
   */
  counts(): UnreadCounts {
    const key = countsKey(this);
    if (this.countsCache?.key === key) return this.countsCache.counts;
    const counts = this.unread.counts({
      reader: (streamId, topic) => this.topicMuted(streamId, topic),
      topic: (streamId, topic) => this.topicPolicies.policy(streamId, topic) === VisibilityPolicy.MUTED,
    });
    this.countsCache = { key, counts };
    return counts;
  }

  fail(error: unknown): void {
    this.error.value = error instanceof Error ? error.message : String(error);
  }

  private registered(r: Registration, again: boolean): void {
    this.registration = r;
    const first = again ? undefined : this.firstPage;
    this.firstPage = undefined;
    batch(() => {
      // The first registration keeps what is shown (only the first page, fetched alongside it); a
      // new one after a lost queue starts afresh: the server's answer is the truth again.
      if (again) this.messages = new MessageStore(this.selfId, (m) => this.messageMuted(m));
      this.unread = new Unread(this.selfId, r.unread_msgs as UnreadSeed);
      this.topicPolicies = new TopicPolicies((r.user_topics as UserTopic[] | undefined) ?? []);
      this.drafts = sortDrafts((r.drafts as Draft[] | undefined) ?? []);
      this.scheduled = sortScheduled((r.scheduled_messages as ScheduledMessage[] | undefined) ?? []);
      this.users = new Map(((r.realm_users as User[]) ?? []).map((u) => [u.user_id, u]));
      for (const bot of (r.realm_non_active_users as User[]) ?? []) this.users.set(bot.user_id, { ...bot, is_active: false });
      this.subscriptions = new Map(((r.subscriptions as Subscription[]) ?? []).map((s) => [s.stream_id, s]));
      this.channels = new Map(channelsOf(r).map((s) => [s.stream_id, s]));
      this.realm = {
        name: String(r.realm_name ?? 'Parley'),
        description: String(r.realm_description ?? ''),
        emoji: (r.realm_emoji as RealmInfo['emoji']) ?? {},
        maxFileUploadMb: Number(r.max_file_upload_size_mib ?? 25),
      };
      this.userSettings = (r.user_settings as Record<string, unknown>) ?? {};
      this.presence = new Map();
      const presences = (r.presences as Record<string, { active_timestamp?: number }>) ?? {};
      for (const [id, p] of Object.entries(presences)) this.presence.set(Number(id), p.active_timestamp ?? 0);
      this.topics.clear();
      this.rowContext++;
      this.changed();
    });
    // Not on the first screen, and its parse (tens of ms) run in the first idle moment landed in the
    // person's first switch: a few seconds after the start, or at once when a picker or ':' needs it.
    setTimeout(() => whenIdle(() => this.emoji.need(r.server_emoji_data_url)), EMOJI_AFTER_MS);
    if (first) void this.catchUpFirstPage(first, Number(r.max_message_id ?? 0));
    // After a lost queue everything is fetched again: what was missed arrives with the new pages.
    // Otherwise this fetches only what the first page does not cover (a failed one, another narrow).
    void this.load(this.narrow.value, again);
  }

  /**
   * The page asked for at start goes in as soon as it is here, registered or not: the messages are
   * drawn without waiting for the registration (names from the messages until it comes).
   */
  private async showFirstPage(first: FirstPage): Promise<void> {
    const store = this.messages;
    const key = narrowKey(first.narrow);
    this.inFlight.set(key, first.page.then(() => {}, () => {}));
    let page: FetchedPage | undefined;
    try {
      page = await first.page;
    } catch {
      // A network blip: the ordinary fetch takes over (now, or once registered).
    } finally {
      this.inFlight.delete(key);
    }
    if (this.messages !== store) return;
    if (!page) return void this.load(first.narrow, false);
    this.namesSeen = namesIn(page, this.namesSeen);
    this.rowContext++;
    store.addPage(first.narrow, page, 'around');
    this.changed('feed');
  }

  /** Once registered: the messages after the first page's newest, if one arrived between the two snapshots. */
  private async catchUpFirstPage(first: FirstPage, maxMessageId: number): Promise<void> {
    const store = this.messages;
    const page = await first.page.catch(() => undefined);
    if (!page) return;
    try {
      const missed = catchUp(this.api, first.narrow, page, maxMessageId, PAGE_SIZE);
      const newer = missed && (await missed);
      if (!newer || this.messages !== store) return;
      if (!newer.found_newest) return void this.load(first.narrow, true);
      // Usually nothing (max_message_id is the newest anywhere, not in this narrow): no re-render then.
      if (!newer.messages.length) return;
      store.addPage(first.narrow, newer, 'newer');
      this.changed('feed');
    } catch {
      await this.load(first.narrow, true);
    }
  }

  private applyEvents(events: ServerEvent[]): void {
    const scopes = new Set<Scope>();
    // An event that changed nothing (the server's read flags for messages marked read here) re-renders nothing.
    for (const event of events) if (applyEvent(this, event)) for (const scope of scopesOf(event)) scopes.add(scope);
    if (events.some((e) => ROW_CONTEXT_EVENTS.has(e.type))) this.rowContext++;
    // A list forgotten because muting changed (the combined feed) is fetched again if shown.
    if (this.mutingChangedSince) {
      this.mutingChangedSince = false;
      if (!this.messages.list(this.narrow.value)) void this.load(this.narrow.value, false);
    }
    if (scopes.size) this.changed(...scopes);
  }

  user(id: number): User | undefined {
    return this.users.get(id);
  }

  userName(id: number): string {
    return this.users.get(id)?.full_name ?? this.namesSeen.users.get(id) ?? `user ${id}`;
  }

  channelName(id: number): string {
    return this.subscriptions.get(id)?.name ?? this.channels.get(id)?.name ?? this.namesSeen.channels.get(id) ?? `channel ${id}`;
  }

  isMuted(streamId: number): boolean {
    return this.subscriptions.get(streamId)?.is_muted ?? false;
  }

  /** A direct message conversation's name: its people, or "Notes to self". */
  dmName(userIds: readonly number[]): string {
    return userIds.length === 1 && userIds[0] === this.selfId ? 'Notes to self' : userIds.map((id) => this.userName(id)).join(', ');
  }

  /** `#channel › topic`, or the people of a direct message conversation. */
  conversationName(c: Conversation): string {
    return c.type === 'channel' ? `#${this.channelName(c.streamId)} › ${c.topic || 'general chat'}` : this.dmName(c.userIds);
  }

  /** A topic or channel was muted or unmuted: the lists that depend on it are fetched again when shown. */
  mutingChanged(): void {
    this.messages.forgetMuteDependent();
    this.mutingChangedSince = true;
  }

  /** A topic muted for the reader: itself, or by its channel unless unmuted or followed. */
  topicMuted(streamId: number, topic: string): boolean {
    return this.topicPolicies.muted(streamId, topic, this.isMuted(streamId));
  }

  /** A message the combined feed leaves out (in a muted topic or channel). */
  messageMuted(m: Message): boolean {
    return m.type === 'stream' && m.stream_id !== undefined && this.topicMuted(m.stream_id, m.subject);
  }

  isAdmin(): boolean {
    const role = this.users.get(this.selfId)?.role;
    return role !== undefined && role <= 200;
  }

  /**
   * Shows a narrow, with its first page when that is fetched first (not loaded already): nothing
   * re-renders until it is here or a moment has passed. `then` runs as it is shown.
   */
  go(narrow: Narrow, then?: () => void): void {
    this.switcher.go(narrow, this.messages.list(narrow) ? undefined : this.load(narrow, false), then);
  }

  private show(narrow: Narrow): void {
    batch(() => {
      if (narrowKey(narrow) !== narrowKey(this.narrow.value)) this.selected.value = undefined;
      this.narrow.value = narrow;
      // With the page it waited for (fetchNewest): the feed being left is not drawn again first.
      this.changed('feed');
    });
  }

  /** The newest page of a narrow (anchored on the first unread when there is one, as Zulip does); settles when it is here. */
  load(narrow: Narrow, refresh: boolean, size = PAGE_SIZE): Promise<void> {
    if (!this.registration) return Promise.resolve();
    const key = narrowKey(narrow);
    const asked = this.inFlight.get(key);
    if (!refresh && asked) return asked;
    if (!refresh && this.messages.list(narrow)) return Promise.resolve();
    const fetched = this.fetchNewest(narrow, key, size);
    this.inFlight.set(key, fetched);
    return fetched;
  }

  private async fetchNewest(narrow: Narrow, key: string, size: number): Promise<void> {
    this.loading.value = true;
    try {
      const asked = newestPage(this.api, narrow, size);
      this.pageAsked = asked.then(() => {}, () => {});
      const page = await asked;
      this.messages.addPage(narrow, page, 'around');
      const waiting = this.switcher.waiting;
      if (!waiting || narrowKey(waiting) !== key) this.changed('feed');
    } catch (error) {
      this.fail(error);
    } finally {
      this.inFlight.delete(key);
      // Not only the narrow shown: a switch shows its narrow once this page is here.
      if (this.inFlight.size === 0) this.loading.value = false;
    }
  }

  /** The page before the oldest loaded message of a narrow (the current one unless told). */
  async loadOlder(narrow = this.narrow.value): Promise<void> {
    const list = this.messages.list(narrow);
    if (!list || list.foundOldest || this.loading.value) return;
    const oldest = list.ids.find((id) => Number.isInteger(id));
    if (oldest === undefined) return;
    this.loading.value = true;
    try {
      const page = await this.api.get<{ messages: Message[]; found_oldest: boolean; found_newest: boolean }>('/messages', {
        anchor: oldest, include_anchor: false, num_before: PAGE_SIZE, num_after: 0, narrow: apiNarrow(narrow), apply_markdown: true, client_gravatar: true,
      });
      this.messages.addPage(narrow, page, 'older');
      this.changed('feed');
    } catch (error) {
      this.fail(error);
    } finally {
      this.loading.value = false;
    }
  }

  /** Messages seen on screen become read, in batches (read-marks.ts). */
  markSeen(ids: readonly number[]): void {
    this.readMarks.seen(ids);
  }

  /** A channel's topics (newest first); asked once at a time (the sidebar asks on each render until they are here). */
  async loadTopics(streamId: number): Promise<void> {
    if (this.topicsInFlight.has(streamId)) return;
    this.topicsInFlight.add(streamId);
    try {
      // The messages first: a channel's topics asked at the same time as its page arrived first as
      // often as not, and their re-render delayed the messages being drawn.
      await this.pageAsked;
      const answer = await this.api.get<{ topics: { name: string; max_id: number }[] }>(`/users/me/${streamId}/topics`);
      this.topics.set(streamId, answer.topics);
      this.changed('topics');
    } catch (error) {
      this.fail(error);
    } finally {
      this.topicsInFlight.delete(streamId);
    }
  }
}
