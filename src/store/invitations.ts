/**
 * The invitations of one organization, email invitations and reusable links, held in memory (an
 * organization has a few hundred at most) with an index by key for the join page: a record book,
 * loaded once at start, each change written in the caller's transaction and undone in memory if
 * that transaction rolls back.
 */
import { kindOf, type InvitationKind, type InvitationRecord } from '../domain/invitations.js';
import { realmKeys } from './keys.js';
import { RecordBook, UniqueIndex } from './record-book.js';

/** An invitation's name in the book: email invitations and links count their ids apart. */
export const invitationId = (kind: InvitationKind, id: number): string => `${kind}:${id}`;

export class Invitations extends RecordBook<string, InvitationRecord> {
  private readonly linkKeys: UniqueIndex<InvitationRecord>;

  constructor(realmId: number) {
    const keys = realmKeys(realmId);
    super({ prefix: keys.invitationPrefix, key: (record) => keys.invitation(kindOf(record), record.id), id: (record) => invitationId(kindOf(record), record.id) });
    this.linkKeys = this.indexBy(new UniqueIndex((record: InvitationRecord) => [record.key]));
  }

  byLinkKey(key: string): InvitationRecord | undefined {
    return this.linkKeys.get(key);
  }
}
