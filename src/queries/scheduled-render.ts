/**
 * Scheduled messages' Markdown, rendered once when scheduled and reused at delivery while it is
 * still what rendering now would give: the render is kept with a stamp of everything rendering
 * reads (users, groups, uploads, custom emoji, the realm's linkifiers) and is dropped for another
 * when any of them changed. Channels are read only by channel links (`#**…**`), and a message
 * with one is always rendered again (what it may link to also follows the sender's
 * subscriptions): so a channel's change (its first message id, set by the first message sent to
 * it) does not throw every render away. Kept in memory only: after a restart the delivery
 * renders, as it did before.
 */
import type { RenderedMessage } from '../domain/markdown/index.js';
import type { Services } from '../services.js';
import { recordNumber } from '../shared/record-number.js';

/** The state rendering reads (but for channels, see above), as one string; equal stamps, equal renders. */
export function renderStamp(services: Services): string {
  const { org } = services;
  return `${org.users.version}:${org.groups.version}:${services.attachments.version}:${services.realmEmoji.version}:${recordNumber(org.realm)}`;
}

/** Keeps the render of a scheduled message's `content`, made at `stamp`. */
export function keepRender(services: Services, id: number, content: string, stamp: string, rendered: RenderedMessage): void {
  // Already delivered (due at once), or a channel link: nothing to keep.
  if (content.includes('#**') || services.scheduled.get(id)?.content !== content) return;
  services.readCaches.scheduledRenders.set(id, { content, stamp, rendered });
}

/** The kept render of `content` when still valid (else undefined: render again). */
export function keptRender(services: Services, id: number, content: string): RenderedMessage | undefined {
  const kept = services.readCaches.scheduledRenders.get(id);
  return kept !== undefined && kept.content === content && kept.stamp === renderStamp(services) ? kept.rendered : undefined;
}

export function dropRender(services: Services, id: number): void {
  services.readCaches.scheduledRenders.delete(id);
}
