/** User, wildcard and group mentions (`@**Name**`, `@**Name|4**`, `@**all**`, `@*group*`, silent `@_…`). */
import type { StateInline } from 'markdown-it';
import { renderState, type MarkdownContext } from './context.js';
import { pushElement, type InlineElement } from './elements.js';
import { matchAt } from './inline-match.js';

const USER_MENTION = /@(_?)\*\*([^*]+)\*\*/y;
const GROUP_MENTION = /@(_?)\*([^*]+)\*/y;
const NAME_WITH_ID = /^(.+)?\|(\d+)$/;
const ALLOWED_BEFORE = /[\s'"({[/<]/;

const AT = 0x40;
const TOPIC_WILDCARD = 'topic';
const STREAM_WILDCARDS = new Set(['all', 'everyone', 'channel', 'stream']);

/** Zulip only sees a mention (or channel link) at the start, after whitespace or after one of `'"({[/<`. */
export function mayStartMention(src: string, pos: number): boolean {
  return pos === 0 || ALLOWED_BEFORE.test(src[pos - 1]);
}

/** The element for `@**name**`, or undefined when Zulip would leave the text alone. */
export function userMentionElement(context: MarkdownContext, name: string, quiet: boolean): InlineElement | undefined {
  const silentClass = quiet ? ' silent' : '';
  if (name === TOPIC_WILDCARD) {
    return {
      tag: 'span',
      attributes: [['class', `topic-mention${silentClass}`]],
      text: quiet ? name : `@${name}`,
      mention: quiet ? undefined : { kind: 'topic_wildcard' },
    };
  }
  if (STREAM_WILDCARDS.has(name)) {
    return {
      tag: 'span',
      attributes: [
        ['class', `user-mention channel-wildcard-mention${silentClass}`],
        ['data-user-id', '*'],
      ],
      text: quiet ? name : `@${name}`,
      mention: quiet ? undefined : { kind: 'stream_wildcard' },
    };
  }
  const user = mentionedUser(context, name);
  if (!user) return undefined;
  return {
    tag: 'span',
    attributes: [
      ['class', `user-mention${silentClass}`],
      ['data-user-id', String(user.id)],
    ],
    text: quiet ? user.fullName : `@${user.fullName}`,
    mention: quiet ? undefined : { kind: 'user', id: user.id },
  };
}

function mentionedUser(context: MarkdownContext, name: string): { id: number; fullName: string } | undefined {
  const withId = NAME_WITH_ID.exec(name);
  if (withId) {
    const user = context.userById(Number(withId[2]));
    // `@**Someone Else|4**` is invalid rather than a mention of user 4.
    if (user && withId[1] !== undefined && withId[1] !== user.fullName) return undefined;
    return user;
  }
  const users = context.userByName(name);
  // An ambiguous name needs the `|id` form.
  return users.length === 1 ? users[0] : undefined;
}

export function groupMentionElement(context: MarkdownContext, name: string, quiet: boolean): InlineElement | undefined {
  const group = context.groupByName(name);
  if (!group) return undefined;
  return {
    tag: 'span',
    attributes: [
      ['class', quiet ? 'user-group-mention silent' : 'user-group-mention'],
      ['data-user-group-id', String(group.id)],
    ],
    text: quiet ? group.name : `@${group.name}`,
    mention: quiet ? undefined : { kind: 'group', id: group.id },
  };
}

/** Inline rule for `@**…**`; an unknown name falls through, so Zulip's `@<strong>…</strong>` results. */
export function userMentionRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== AT || !mayStartMention(state.src, state.pos)) return false;
  const match = matchAt(USER_MENTION, state);
  if (!match) return false;
  const env = renderState(state.env);
  const element = userMentionElement(env.context, match[2], match[1] === '_' || env.quoted);
  if (!element) return false;
  pushElement(state, silent, element);
  state.pos += match[0].length;
  return true;
}

export function groupMentionRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== AT || !mayStartMention(state.src, state.pos)) return false;
  const match = matchAt(GROUP_MENTION, state);
  if (!match) return false;
  const env = renderState(state.env);
  const element = groupMentionElement(env.context, match[2], match[1] === '_' || env.quoted);
  if (!element) return false;
  pushElement(state, silent, element);
  state.pos += match[0].length;
  return true;
}
