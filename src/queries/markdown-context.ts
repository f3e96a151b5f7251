/**
 * The Markdown rendering context: the names the renderer resolves (active users, active groups,
 * channels the author may read), uploaded images' previews and custom emoji, bound to one
 * organization; and the renderer that services offer (`services.render`).
 */
import { compiledLinkifiers } from '../domain/linkifiers.js';
import type { SubscriptionBook } from '../actors/subscription-book.js';
import { canAccessContent, type ChannelRecord } from '../domain/channel-record.js';
import { renderMarkdown, type MarkdownContext, type RenderedMessage } from '../domain/markdown/index.js';
import { emojiUrl } from '../domain/realm-emoji.js';
import type { UserRecord } from '../domain/users.js';
import type { Attachments } from '../store/attachments.js';
import type { Organization } from '../store/organization.js';
import type { RealmEmojiBook } from '../store/realm-emoji.js';

/**
 * Names the renderer can resolve: active users, active groups, channels. `readable` narrows the
 * channels to those the message's author may read, when there is an author.
 */
export function markdownContext(org: Organization, readable: (channel: ChannelRecord) => boolean = () => true): MarkdownContext {
  const byName = new Map<string, { id: number; fullName: string }[]>();
  let builtAt = -1;
  const usersByName = (name: string) => {
    // Rebuilt only when users changed since the last message.
    if (builtAt !== org.users.version) {
      byName.clear();
      for (const user of org.users.all()) {
        if (!user.isActive) continue;
        const key = user.fullName.toLowerCase();
        const list = byName.get(key);
        if (list) list.push({ id: user.id, fullName: user.fullName });
        else byName.set(key, [{ id: user.id, fullName: user.fullName }]);
      }
      builtAt = org.users.version;
    }
    return byName.get(name.toLowerCase()) ?? [];
  };
  return {
    userByName: usersByName,
    userById: (id) => {
      const user = org.users.get(id);
      return user?.isActive ? { id: user.id, fullName: user.fullName } : undefined;
    },
    groupByName: (name) => {
      const group = org.groups.byName(name);
      return group && !group.deactivated && !group.isSystemGroup ? { id: group.id, name: group.name } : undefined;
    },
    channelByName: (name) => {
      const channel = org.channels.byName(name);
      return channel && readable(channel) ? { id: channel.id, name: channel.name } : undefined;
    },
  };
}

/** Renders a message's Markdown as `by` writes it: channel links only to channels the author may read. */
export function markdownRenderer(
  org: Organization,
  subscriptions: SubscriptionBook,
  attachments: Attachments,
  realmEmoji: RealmEmojiBook,
): (content: string, by: UserRecord | undefined) => RenderedMessage {
  // The author of the message being rendered; rendering is synchronous, so one slot serves.
  let author: UserRecord | undefined;
  const context: MarkdownContext = {
    ...markdownContext(org, (channel) => author === undefined || canAccessContent(author, channel, subscriptions.isSubscribed(author.id, channel.id))),
    uploadPreview: (pathId) => attachments.byPathId(pathId)?.image,
    linkifiers: () => compiledLinkifiers(org.realm.linkifiers),
    realmEmoji: (name) => {
      const emoji = realmEmoji.activeByName(name);
      return emoji && { id: String(emoji.id), name: emoji.name, url: emojiUrl(org.id, emoji.fileName) };
    },
  };
  return (content, by) => {
    author = by;
    try {
      return renderMarkdown(content, context);
    } finally {
      author = undefined;
    }
  };
}
