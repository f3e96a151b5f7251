/** Browser notifications for direct messages and mentions while the tab is hidden. */
import type { Message } from '../state/types.js';
import { MENTION_FLAGS } from '../state/unread.js';
import type { App } from './app.js';

export function startNotifications(app: App): void {
  app.onMessage = (message: Message, flags: readonly string[]) => {
    if (message.sender_id === app.selfId || document.visibilityState === 'visible') return;
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    if (app.userSettings.enable_desktop_notifications === false) return;
    const direct = message.type === 'private';
    if (!direct && !flags.some((f) => MENTION_FLAGS.includes(f))) return;
    // In a muted topic only a personal mention notifies (as Zulip: wildcard mentions stay quiet there).
    if (!direct && app.messageMuted(message) && !flags.includes('mentioned')) return;
    const where = direct ? 'Direct message' : `#${app.channelName(message.stream_id!)} › ${message.subject}`;
    const text = new DOMParser().parseFromString(message.content, 'text/html').body.textContent ?? '';
    const notice = new Notification(`${message.sender_full_name} (${where})`, { body: text.slice(0, 200), tag: String(message.id) });
    notice.onclick = () => window.focus();
  };
}

/** Asked from a click (browsers refuse permission prompts not caused by the user). */
export function askNotificationPermission(): Promise<NotificationPermission> {
  return typeof Notification === 'undefined' ? Promise.resolve('denied') : Notification.requestPermission();
}
