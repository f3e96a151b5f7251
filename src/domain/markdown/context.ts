/** What rendering reads (the organization's names) and what it reports (mentions), carried through markdown-it's env. */
import type { Env } from 'markdown-it';
import type { ImageInfo } from '../uploads.js';
import type { CompiledLinkifier } from '../linkifiers.js';

export interface MarkdownContext {
  /** Active users by exact full name (match case-insensitively) and by id. */
  userByName(name: string): { id: number; fullName: string }[]; // may return several with the same name
  userById(id: number): { id: number; fullName: string } | undefined;
  /** Active user groups by name (case-insensitive). */
  groupByName(name: string): { id: number; name: string } | undefined;
  /** Channels by name (case-insensitive). */
  channelByName(name: string): { id: number; name: string } | undefined;
  /** Custom (realm) emoji by name, if any. */
  realmEmoji?(name: string): { id: string; name: string; url: string } | undefined;
  /** An uploaded image's size and frames by path id, when the file is an image (its preview is shown). */
  uploadPreview?(pathId: string): ImageInfo | undefined;
  /** The organization's linkifiers, compiled, in the order they apply. */
  linkifiers?(): readonly CompiledLinkifier[];
}

export interface RenderedMessage {
  html: string;
  /** Users mentioned by a non-silent user mention. */
  mentionedUserIds: Set<number>;
  /** Groups mentioned by a non-silent group mention. */
  mentionedGroupIds: Set<number>;
  /** A non-silent @**all** / @**everyone** / @**channel** / @**stream** was rendered. */
  streamWildcard: boolean;
  /** A non-silent @**topic** was rendered. */
  topicWildcard: boolean;
}

/** One rendering's state: the lookups, the result being filled in, and whether we are inside a quote. */
export interface RenderState {
  context: MarkdownContext;
  result: RenderedMessage;
  /** Inline content being parsed sits in a blockquote, where Zulip silences every mention. */
  quoted: boolean;
}

const RENDER_STATE = Symbol('parley.markdown');

export function newEnv(state: RenderState): Env {
  return { [RENDER_STATE]: state };
}

export function renderState(env: Env | undefined): RenderState {
  const state = env?.[RENDER_STATE];
  if (state === undefined) throw new Error('markdown env was not made by newEnv');
  return state as RenderState;
}
