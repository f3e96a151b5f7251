/** The compose box's state, shared with the keyboard shortcuts and the reply actions. */
import { signal } from '@preact/signals';
import type { App } from '../app/app.js';
import { rawContent } from '../app/message-actions.js';
import { quoteReply } from '../state/autocomplete.js';
import { channelNarrow, dmNarrow, term, type Narrow } from '../state/narrow.js';
import { destinationOf, type Draft } from '../state/drafts.js';
import { adoptDraft } from '../app/drafts.js';
import { dmUserIds } from '../state/types.js';

export type ComposeMode = 'channel' | 'dm';

export const compose = {
  mode: signal<ComposeMode>('channel'),
  streamId: signal<number | undefined>(undefined),
  topic: signal(''),
  dmTo: signal<number[]>([]),
  text: signal(''),
  /** Bumped to ask the compose box to take focus. */
  focus: signal(0),
};

/** The compose box follows the narrow: a channel (and topic) or a conversation is the default destination. */
export function composeFromNarrow(narrow: Narrow): void {
  const channel = term(narrow, 'channel');
  const topic = term(narrow, 'topic');
  const dm = term(narrow, 'dm');
  if (channel && typeof channel.operand === 'number') {
    compose.mode.value = 'channel';
    compose.streamId.value = channel.operand;
    compose.topic.value = topic ? String(topic.operand) : compose.streamId.value === channel.operand ? compose.topic.value : '';
  } else if (dm && Array.isArray(dm.operand)) {
    compose.mode.value = 'dm';
    compose.dmTo.value = dm.operand;
  }
}

/** `r`: reply to a message's conversation; with `quote`, its text quoted (fetched as Markdown). */
export async function replyTo(app: App, messageId: number, quote: boolean): Promise<void> {
  const m = app.messages.byId.get(messageId);
  if (!m) return;
  if (m.type === 'stream') {
    compose.mode.value = 'channel';
    compose.streamId.value = m.stream_id;
    compose.topic.value = m.subject;
  } else {
    compose.mode.value = 'dm';
    compose.dmTo.value = dmUserIds(m, app.selfId);
  }
  if (quote) {
    const raw = await rawContent(app, messageId);
    const prefix = compose.text.value && !compose.text.value.endsWith('\n') ? compose.text.value + '\n' : compose.text.value;
    compose.text.value = prefix + quoteReply(m.sender_full_name, m.sender_id, raw);
  }
  compose.focus.value++;
}

/** A saved draft back in the compose box (it becomes the draft being edited); the narrow to show it in. */
export function restoreDraft(app: App, draft: Draft): Narrow | undefined {
  const to = destinationOf(draft, app.selfId);
  if (to?.type === 'channel') {
    compose.mode.value = 'channel';
    compose.streamId.value = to.streamId;
    compose.topic.value = to.topic;
  } else if (to) {
    compose.mode.value = 'dm';
    compose.dmTo.value = to.userIds;
  }
  compose.text.value = draft.content;
  adoptDraft(draft.id);
  compose.focus.value++;
  if (!to) return undefined;
  return to.type === 'channel' ? channelNarrow(to.streamId, to.topic) : dmNarrow(to.userIds);
}
