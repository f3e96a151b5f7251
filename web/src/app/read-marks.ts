/** Messages seen on screen become read, in batches (as Zulip's client does): shown read at once, told to the server, confirmed by its event (which then changes nothing). */
import type { App } from './app.js';

const BATCH_MS = 150;

export class ReadMarks {
  private readonly pending = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly app: App) {}

  seen(ids: readonly number[]): void {
    for (const id of this.app.unread.unreadAmong(ids)) this.pending.add(id);
    if (this.pending.size === 0 || this.timer) return;
    this.timer = setTimeout(() => this.send(), BATCH_MS);
  }

  private send(): void {
    const app = this.app;
    this.timer = undefined;
    const ids = [...this.pending];
    this.pending.clear();
    app.unread.remove(ids);
    app.messages.flag('add', 'read', ids);
    // The rows' marks and the counts, nothing else.
    app.changed('feed', 'unread');
    app.api.post('/messages/flags', { messages: ids, op: 'add', flag: 'read' }).catch((e) => app.fail(e));
  }
}
