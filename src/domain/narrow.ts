/**
 * Narrows: parsing both of Zulip's forms (`["stream","Denmark"]` and
 * `{"operator":…,"operand":…,"negated":…}`), then resolving operands (names, emails, ids) to
 * typed terms, with Zulip's BAD_NARROW errors.
 */
import { ApiError, badRequest } from './errors.js';
import { conversationKey } from './messages.js';

export interface RawTerm {
  operator: string;
  operand: unknown;
  negated: boolean;
}

export type Term =
  | { kind: 'channel'; channelId: number; negated: boolean }
  | { kind: 'channels'; which: 'public' | 'web-public'; negated: boolean }
  | { kind: 'topic'; topic: string; negated: boolean }
  | { kind: 'sender'; userId: number; negated: boolean }
  /** `key` is the conversation (participants with the viewer); undefined: no such conversation can exist. */
  | { kind: 'dm'; key: string | undefined; negated: boolean }
  | { kind: 'dm-including'; userId: number; negated: boolean }
  | { kind: 'group-dm-with'; userId: number; negated: boolean }
  | { kind: 'is'; what: IsOperand; negated: boolean }
  | { kind: 'has'; what: 'attachment' | 'image' | 'link' | 'reaction'; negated: boolean }
  | { kind: 'in'; what: 'home' | 'all'; negated: boolean }
  | { kind: 'id'; id: number; negated: boolean }
  | { kind: 'search'; query: string; negated: boolean }
  | { kind: 'with'; id: number; negated: boolean };

export type IsOperand = 'dm' | 'starred' | 'unread' | 'mentioned' | 'alerted' | 'resolved' | 'followed' | 'muted';
const IS_OPERANDS: Record<string, IsOperand> = {
  dm: 'dm',
  private: 'dm',
  starred: 'starred',
  unread: 'unread',
  mentioned: 'mentioned',
  alerted: 'alerted',
  resolved: 'resolved',
  followed: 'followed',
  muted: 'muted',
};

const ALIASES: Record<string, string> = {
  stream: 'channel',
  streams: 'channels',
  'pm-with': 'dm',
  pm_with: 'dm',
  'group-pm-with': 'group-pm-with',
  group_pm_with: 'group-pm-with',
  subject: 'topic',
};

export const MAX_POSSIBLE_MESSAGE_ID = 2147483647;

export const badNarrow = (desc: string) => new ApiError('BAD_NARROW', `Invalid narrow operator: ${desc}`, 400, { desc });

/** Validates the shape of each element; `name` is the parameter name for messages (`narrow`). */
export function parseNarrow(value: unknown, name = 'narrow'): RawTerm[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
  return value.map((element, index) => {
    const invalid = (text: string) => badRequest(`Invalid ${name}[${index}]: Value error, ${text}`);
    if (Array.isArray(element)) {
      if (element.length !== 2 || typeof element[0] !== 'string' || typeof element[1] !== 'string') throw invalid('element is not a string pair');
      return { operator: element[0], operand: element[1], negated: false };
    }
    if (element !== null && typeof element === 'object') {
      const { operator, operand, negated } = element as Record<string, unknown>;
      if (operator === undefined || operator === null) throw invalid('operator is missing');
      if (operand === undefined || operand === null) throw invalid('operand is missing');
      if (typeof operator !== 'string') throw badRequest(`${name}[${index}]["operator"] is not a string`);
      if (negated !== undefined && typeof negated !== 'boolean') throw badRequest(`${name}[${index}]["negated"] is not a boolean`);
      return { operator, operand, negated: negated === true };
    }
    throw invalid('dict or list required');
  });
}

export interface NarrowLookup {
  viewerId: number;
  channelByName(name: string): { id: number } | undefined;
  channelById(id: number): { id: number } | undefined;
  userByEmail(email: string): { id: number } | undefined;
  userById(id: number): { id: number } | undefined;
}

function operandText(operand: unknown): string {
  return typeof operand === 'string' ? operand : JSON.stringify(operand);
}

function resolveUser(operand: unknown, lookup: NarrowLookup): number | undefined {
  if (typeof operand === 'number' && Number.isInteger(operand)) return lookup.userById(operand)?.id;
  if (typeof operand === 'string') {
    const trimmed = operand.trim();
    if (/^\d+$/.test(trimmed)) return lookup.userById(Number(trimmed))?.id ?? lookup.userByEmail(trimmed)?.id;
    return lookup.userByEmail(trimmed)?.id;
  }
  return undefined;
}

function requireString(operand: unknown): string {
  if (typeof operand !== 'string') throw badRequest('operand is not a string');
  return operand;
}

/** Resolves parsed terms; throws BAD_NARROW for unknown operators, channels, users and operands. */
export function resolveNarrow(raw: readonly RawTerm[], lookup: NarrowLookup, emptyTopicDisplayName: string): Term[] {
  const terms: Term[] = [];
  let sawTopic = false;
  let withCount = 0;
  for (const { operator: rawOperator, operand, negated } of raw) {
    const operator = ALIASES[rawOperator] ?? rawOperator;
    switch (operator) {
      case 'channel':
        terms.push({ kind: 'channel', channelId: resolveChannel(operand, lookup), negated });
        break;
      case 'channels': {
        const which = requireString(operand);
        if (which !== 'public' && which !== 'web-public') throw badNarrow(`unknown channels operand ${which}`);
        terms.push({ kind: 'channels', which, negated });
        break;
      }
      case 'topic': {
        let topic = requireString(operand);
        // As Zulip: the empty topic's display name means the empty topic (first topic term only).
        if (!sawTopic && topic === emptyTopicDisplayName) topic = '';
        sawTopic = true;
        terms.push({ kind: 'topic', topic, negated });
        break;
      }
      case 'sender': {
        const userId = resolveUser(operand, lookup);
        if (userId === undefined) throw badNarrow(`unknown user ${operandText(operand)}`);
        terms.push({ kind: 'sender', userId, negated });
        break;
      }
      case 'dm': {
        const ids = resolveDmUsers(operand, lookup);
        terms.push({ kind: 'dm', key: ids.length === 0 ? undefined : conversationKey([...ids, lookup.viewerId]), negated });
        break;
      }
      case 'dm-including':
      case 'group-pm-with':
        terms.push(personTerm(operator, operand, negated, lookup));
        break;
      case 'is': {
        const what = IS_OPERANDS[requireString(operand)];
        if (!what) throw badNarrow(`unknown 'is' operand ${operandText(operand)}`);
        terms.push({ kind: 'is', what, negated });
        break;
      }
      case 'has': {
        const what = requireString(operand);
        if (what !== 'attachment' && what !== 'image' && what !== 'link' && what !== 'reaction') throw badNarrow(`unknown 'has' operand ${what}`);
        terms.push({ kind: 'has', what, negated });
        break;
      }
      case 'in': {
        const what = requireString(operand);
        if (what !== 'home' && what !== 'all') throw badNarrow(`unknown 'in' operand ${what}`);
        terms.push({ kind: 'in', what, negated });
        break;
      }
      case 'id':
        terms.push({ kind: 'id', id: messageIdOperand(operand), negated });
        break;
      case 'search':
        terms.push({ kind: 'search', query: searchOperand(operand), negated });
        break;
      case 'near':
        break; // clients use it as the anchor; the server ignores it
      case 'with':
        withCount++;
        if (withCount > 1) throw new ApiError('BAD_NARROW', "Invalid narrow operator combination: Duplicate 'with' operators.", 400, { desc: "Duplicate 'with' operators." });
        terms.push({ kind: 'with', id: withOperand(operand), negated: false });
        break;
      default:
        throw badNarrow(`unknown operator ${rawOperator}`);
    }
  }
  checkCombination(terms);
  return terms;
}

/** `dm-including` (yourself included: every direct message you have) and `group-pm-with`. */
function personTerm(operator: 'dm-including' | 'group-pm-with', operand: unknown, negated: boolean, lookup: NarrowLookup): Term {
  const userId = resolveUser(operand, lookup);
  if (userId === undefined) throw badNarrow(`unknown user ${operandText(operand)}`);
  if (operator === 'group-pm-with') return { kind: 'group-dm-with', userId, negated };
  return userId === lookup.viewerId ? { kind: 'is', what: 'dm', negated } : { kind: 'dm-including', userId, negated };
}

function searchOperand(operand: unknown): string {
  const query = requireString(operand);
  if (query.trim() === '') throw badRequest('operand cannot be blank');
  return query;
}

function withOperand(operand: unknown): number {
  const text = typeof operand === 'number' ? String(operand) : typeof operand === 'string' ? operand.trim() : '';
  if (!/^\d+$/.test(text)) throw badNarrow("Invalid 'with' operator");
  return Number(text);
}

function messageIdOperand(operand: unknown): number {
  const text = typeof operand === 'number' ? String(operand) : requireString(operand).trim();
  if (!/^\d+$/.test(text) || Number(text) > MAX_POSSIBLE_MESSAGE_ID) throw badNarrow('Invalid message ID');
  return Number(text);
}

/** A channel operand: an id, a name, or a name made of digits that is an id. */
function resolveChannel(operand: unknown, lookup: NarrowLookup): number {
  let channel: { id: number } | undefined;
  if (typeof operand === 'number') channel = lookup.channelById(operand);
  else if (typeof operand === 'string') channel = lookup.channelByName(operand.trim()) ?? (/^\d+$/.test(operand.trim()) ? lookup.channelById(Number(operand)) : undefined);
  else throw badRequest('operand is not a string');
  if (!channel) throw badNarrow(`unknown channel ${operandText(operand)}`);
  return channel.id;
}

/** A `dm` operand: a list of ids, comma-separated emails, or one id. */
function resolveDmUsers(operand: unknown, lookup: NarrowLookup): number[] {
  if (Array.isArray(operand)) {
    if (!operand.every((id) => typeof id === 'number' && lookup.userById(id))) throw badNarrow(`unknown user in ${JSON.stringify(operand)}`);
    return operand as number[];
  }
  if (typeof operand === 'string') {
    const emails = operand.split(',').map((e) => e.trim()).filter(Boolean);
    const found = emails.map((e) => lookup.userByEmail(e)?.id);
    if (found.some((id) => id === undefined)) throw badNarrow(`unknown user in ${operand}`);
    return found as number[];
  }
  if (typeof operand === 'number') {
    if (!lookup.userById(operand)) throw badNarrow(`unknown user in ${operand}`);
    return [operand];
  }
  throw badRequest('operand is not a string');
}

/** No message is both a channel message and a direct message. */
function checkCombination(terms: readonly Term[]): void {
  const channelTerms = terms.some((t) => !t.negated && (t.kind === 'channel' || t.kind === 'channels' || t.kind === 'topic'))
    || terms.some((t) => t.negated && t.kind === 'is' && t.what === 'dm');
  const dmTerms = terms.some((t) => !t.negated && (t.kind === 'dm' || t.kind === 'dm-including' || t.kind === 'group-dm-with' || (t.kind === 'is' && t.what === 'dm')));
  if (channelTerms && dmTerms) throw badNarrow('No message can be both a channel message and direct message');
}
