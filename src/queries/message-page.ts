/**
 * One page of GET /messages around an anchor, filled from two walks of a narrow (older, newest
 * first; newer, oldest first) that give their matches one by one until told to stop. The same
 * rules whether the walks run at once over memory or step through the store (message-query.ts).
 */
import { LARGER_THAN_MAX_MESSAGE_ID, type MessageRecord } from '../domain/messages.js';

export interface Found {
  record: MessageRecord;
  flags: number;
}

export interface RangeRequest {
  anchor: number | 'first_unread';
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

export interface RangeResult {
  messages: Found[];
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}


export class Page {
  private readonly before: Found[] = [];
  private readonly after: Found[] = [];
  private anchorRow: Found | undefined;
  /** No newer messages are asked for when the anchor is past the newest. */
  readonly numAfter: number;

  constructor(
    readonly anchor: number,
    private readonly request: RangeRequest,
  ) {
    this.numAfter = anchor >= LARGER_THAN_MAX_MESSAGE_ID ? 0 : request.numAfter;
  }

  get wantsBefore(): boolean {
    return this.request.numBefore > 0;
  }

  get wantsAfter(): boolean {
    return this.request.includeAnchor || this.numAfter > 0;
  }

  /** An older match (newest first); false once the page has enough of them. */
  takeBefore(found: Found): boolean {
    return this.before.push(found) < this.request.numBefore;
  }

  /** A newer match or the anchor (oldest first); false once the page has enough of them. */
  takeAfter(found: Found): boolean {
    const { numAfter, after } = this;
    if (found.record.id === this.anchor) {
      if (this.request.includeAnchor) this.anchorRow = found;
      return numAfter !== 0;
    }
    if (after.length >= numAfter) return false;
    return after.push(found) < numAfter;
  }

  result(): RangeResult {
    const { before, after, anchorRow, anchor, numAfter } = this;
    before.reverse();
    return {
      messages: anchorRow ? [...before, anchorRow, ...after] : before.length === 0 ? after : after.length === 0 ? before : [...before, ...after],
      anchor,
      foundAnchor: anchorRow !== undefined,
      foundOldest: anchor === 0 || before.length < this.request.numBefore,
      foundNewest: anchor >= LARGER_THAN_MAX_MESSAGE_ID || after.length < numAfter,
    };
  }
}
