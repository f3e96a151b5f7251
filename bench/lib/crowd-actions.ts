/**
 * What a simulated person does: the action mix (Mattermost's load-test mix from their largest
 * customer, relative weights per person), and each action as the request a Zulip client sends,
 * with what the person remembers from the answer.
 */
import { requestText } from './http-pool.js';
import { sentence, VOCABULARY } from './text.js';

/** The mixed actions and their relative weights. */
export const MIX = {
  'switch channel': 6.52,
  'scroll back': 1.99,
  'unread check': 1,
  post: 1,
  'open DM': 0.98,
  'recent conversations': 0.6,
  'mark read': 0.32,
  react: 0.13,
  edit: 0.04,
  search: 0.02,
} as const;

export type MixedAction = keyof typeof MIX;
/** Every request kind timed: the mix, plus presence (every 60 s), typing (before each post) and registering a queue. */
export type ActionKind = MixedAction | 'presence' | 'typing' | 'register';

const ENTRIES = Object.entries(MIX) as Array<[MixedAction, number]>;
const TOTAL = ENTRIES.reduce((sum, [, weight]) => sum + weight, 0);

/** The action for a uniform draw `u` in [0, 1). */
export function pickAction(u: number): MixedAction {
  let left = u * TOTAL;
  for (const [action, weight] of ENTRIES) {
    left -= weight;
    if (left < 0) return action;
  }
  return 'switch channel';
}

/** What one simulated person knows. */
export interface Person {
  index: number;
  userId: number;
  authorization: string;
  channels: number[];
  /** User ids of the people this person writes direct messages to. */
  partnerIds: number[];
  /** Their indices, for the expected deliveries of a direct message. */
  partners: number[];
  queueId: string | undefined;
  /** The channel in view, and the oldest message id of its pages fetched so far (0: none yet). */
  channel: number;
  oldest: number;
  /** Ids of messages received on the person's queue and not yet marked read. */
  unread: number[];
  /** The newest message received, for a reaction. */
  newestReceived: number;
  reacted: Set<number> | undefined;
  /** The person's newest own message and when it was sent (for an edit within the edit limit). */
  own: number;
  ownAt: number;
  /** The newest presence update the person has seen (-1: none, so the first report brings everyone's). */
  presenceId: number;
}

const PAGE = 'anchor=newest&num_before=50&num_after=0&apply_markdown=true&client_gravatar=true&narrow=';
const narrowOf = (narrow: unknown[]) => encodeURIComponent(JSON.stringify(narrow));
/** Content words of the vocabulary (past the function words), for searches. */
const SEARCH_WORDS = VOCABULARY.slice(VOCABULARY.indexOf('deploy'));
const EMOJI = ['smile', 'heart', 'tada', 'octopus', 'rocket'];
/** Zulip's default limit for editing one's own message is 10 minutes; stay well inside it. */
const EDIT_WITHIN_MS = 5 * 60_000;

export const pickOf = <T>(list: readonly T[], next: () => number): T => list[Math.floor(next() * list.length)]!;

/** A request of the mix for this person, or why there is none (nothing to mark read, react to or edit). */
export interface Planned {
  text: string;
  /** What to learn from a successful answer. */
  onAnswer?: (body: string) => void;
}

function oldestOfPage(body: string): number {
  const at = body.indexOf('"messages":[');
  if (at < 0) return 0;
  const match = /"id":(\d+)/.exec(body.slice(at, at + 4000));
  return match ? Number(match[1]) : 0;
}

function switchChannel(person: Person, next: () => number): Planned {
  if (person.channels.length === 0) return openDm(person, next);
  person.channel = pickOf(person.channels, next);
  const channel = person.channel;
  return {
    text: requestText('GET', `/api/v1/messages?${PAGE}${narrowOf([{ operator: 'channel', operand: channel }])}`, person.authorization),
    onAnswer: (body) => {
      if (person.channel === channel) person.oldest = oldestOfPage(body);
    },
  };
}

function openDm(person: Person, next: () => number): Planned {
  return { text: requestText('GET', `/api/v1/messages?${PAGE}${narrowOf([{ operator: 'dm', operand: [pickOf(person.partnerIds, next)] }])}`, person.authorization) };
}

/** The request of `action` for `person`; undefined when the person has nothing to do it on. */
export function plan(action: Exclude<MixedAction, 'post'>, person: Person, next: () => number, now: number): Planned | undefined {
  switch (action) {
    case 'switch channel':
      return switchChannel(person, next);
    case 'scroll back': {
      if (!person.channel || !person.oldest) return switchChannel(person, next);
      const channel = person.channel;
      const path = `/api/v1/messages?anchor=${person.oldest}&include_anchor=false&num_before=50&num_after=0&apply_markdown=true&client_gravatar=true&narrow=${narrowOf([{ operator: 'channel', operand: channel }])}`;
      return {
        text: requestText('GET', path, person.authorization),
        onAnswer: (body) => {
          if (person.channel === channel) person.oldest = oldestOfPage(body) || person.oldest;
        },
      };
    }
    case 'unread check':
      return { text: requestText('GET', `/api/v1/messages?${PAGE}${narrowOf([{ operator: 'is', operand: 'unread' }])}`, person.authorization) };
    case 'open DM':
      return openDm(person, next);
    case 'recent conversations':
      // The combined feed, newest first: what the recent-conversations view is built from.
      return { text: requestText('GET', `/api/v1/messages?anchor=newest&num_before=100&num_after=0&apply_markdown=true&client_gravatar=true&narrow=${narrowOf([])}`, person.authorization) };
    case 'mark read': {
      if (person.unread.length === 0) return undefined;
      const ids = person.unread.splice(0, person.unread.length).slice(-100);
      return { text: requestText('POST', '/api/v1/messages/flags', person.authorization, `messages=${encodeURIComponent(JSON.stringify(ids))}&op=add&flag=read`) };
    }
    case 'react': {
      const id = person.newestReceived;
      if (!id || person.reacted?.has(id)) return undefined;
      (person.reacted ??= new Set()).add(id);
      return { text: requestText('POST', `/api/v1/messages/${id}/reactions`, person.authorization, `emoji_name=${pickOf(EMOJI, next)}`) };
    }
    case 'edit':
      if (!person.own || now - person.ownAt > EDIT_WITHIN_MS) return undefined;
      return { text: requestText('PATCH', `/api/v1/messages/${person.own}`, person.authorization, `content=${encodeURIComponent(sentence(next, false) + ' (edited)')}`) };
    case 'search':
      return { text: requestText('GET', `/api/v1/messages?${PAGE}${narrowOf([{ operator: 'search', operand: pickOf(SEARCH_WORDS, next) }])}`, person.authorization) };
  }
}

/** Where a post goes: mostly the channel in view (a topic of it), sometimes a partner by direct message. */
export type PostTarget = { channel: number; topic: string } | { partner: number };

export function postTarget(person: Person, next: () => number): PostTarget {
  const channel = person.channel || (person.channels.length ? pickOf(person.channels, next) : 0);
  if (channel && next() < 0.8) return { channel, topic: `topic ${Math.floor(next() * 12)}` };
  return { partner: Math.floor(next() * person.partners.length) };
}

export function typingText(person: Person, target: PostTarget): string {
  const body = 'channel' in target
    ? `type=stream&stream_id=${target.channel}&topic=${encodeURIComponent(target.topic)}&op=start`
    : `type=direct&to=${encodeURIComponent(JSON.stringify([person.partnerIds[target.partner]]))}&op=start`;
  return requestText('POST', '/api/v1/typing', person.authorization, body);
}

export function postText(person: Person, target: PostTarget, next: () => number): string {
  const content = `content=${encodeURIComponent(sentence(next, false))}&read_by_sender=true`;
  const body = 'channel' in target
    ? `type=stream&to=${target.channel}&topic=${encodeURIComponent(target.topic)}&${content}`
    : `type=direct&to=${encodeURIComponent(JSON.stringify([person.partnerIds[target.partner]]))}&${content}`;
  return requestText('POST', '/api/v1/messages', person.authorization, body);
}

/** A presence report as the web client sends it every 60 s, asking only for what changed since its last one. */
export function presence(person: Person): Planned {
  return {
    text: requestText('POST', '/api/v1/users/me/presence', person.authorization, `status=active&ping_only=false&new_user_input=true&slim_presence=true&last_update_id=${person.presenceId}`),
    onAnswer: (body) => {
      person.presenceId = Number(/"presence_last_update_id":(-?\d+)/.exec(body)?.[1] ?? person.presenceId);
    },
  };
}

export function registerText(person: Person): string {
  // Every event type (a real client's queue), but little initial state: the state is its own scenario (`register`).
  return requestText('POST', '/api/v1/register', person.authorization, `apply_markdown=true&client_gravatar=true&slim_presence=true&fetch_event_types=${encodeURIComponent('["message"]')}`);
}
