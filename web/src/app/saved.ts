/** Drafts and scheduled messages through their APIs: list afresh, delete, reschedule or edit. The events that follow keep the lists. */
import { sortDrafts, sortScheduled, type Draft, type ScheduledMessage } from '../state/drafts.js';
import type { App } from './app.js';

/** GET /drafts: the list as the server has it now (another device may have changed it while no queue was open). */
export async function refreshDrafts(app: App): Promise<void> {
  try {
    const answer = await app.api.get<{ drafts: Draft[] }>('/drafts');
    app.drafts = sortDrafts(answer.drafts);
    app.changed();
  } catch (error) {
    app.fail(error);
  }
}

export async function deleteDraft(app: App, id: number): Promise<void> {
  try {
    await app.api.del(`/drafts/${id}`);
    app.drafts = app.drafts.filter((d) => d.id !== id);
    app.changed();
  } catch (error) {
    app.fail(error);
  }
}

export async function refreshScheduled(app: App): Promise<void> {
  try {
    const answer = await app.api.get<{ scheduled_messages: ScheduledMessage[] }>('/scheduled_messages');
    app.scheduled = sortScheduled(answer.scheduled_messages);
    app.changed();
  } catch (error) {
    app.fail(error);
  }
}

/** New content and / or delivery time (seconds); true when the server took it. */
export async function editScheduled(app: App, id: number, change: { content?: string; at?: number }): Promise<boolean> {
  try {
    await app.api.patch(`/scheduled_messages/${id}`, { content: change.content, scheduled_delivery_timestamp: change.at });
    return true;
  } catch (error) {
    app.fail(error);
    return false;
  }
}

export async function deleteScheduled(app: App, id: number): Promise<void> {
  try {
    await app.api.del(`/scheduled_messages/${id}`);
    app.scheduled = app.scheduled.filter((s) => s.scheduled_message_id !== id);
    app.changed();
  } catch (error) {
    app.fail(error);
  }
}
