/**
 * Creating, editing and deleting drafts through the user's drafts actor, each with its `drafts`
 * event to the user's queues (Zulip's zerver/lib/drafts.py).
 */
import {
  checkDraftsSynchronized,
  directDraftRecipients,
  draftObject,
  draftText,
  type DraftInput,
  type DraftRecord,
} from '../domain/drafts.js';
import { badRequest } from '../domain/errors.js';
import { apiEmail, type UserRecord } from '../domain/users.js';
import { accessChannelById } from '../queries/channel-access.js';
import { usersFromTo } from '../queries/addressees.js';
import { draftBook, requireDraft } from '../queries/drafts.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';
import type { Transaction } from '../store/transaction.js';

/** A draft checked against the state of now (Zulip's further_validated_draft_dict), without its id. */
function checkedDraft(services: Services, user: UserRecord, input: DraftInput, name: string): Omit<DraftRecord, 'id'> {
  const text = draftText(input, name, unixSeconds(services.clock));
  if (input.type === 'stream') {
    const channel = accessChannelById(services, user, input.to[0]!);
    return { type: 'stream', to: [channel.id], ...text };
  }
  if (input.type === 'private' && input.to.length > 0) {
    for (const recipient of usersFromTo(services, input.to)) {
      // The address the requester may see, as every refusal about another user.
      if (!recipient.isActive) throw badRequest(`'${apiEmail(recipient, services.org.host)}' is no longer using Zulip.`);
    }
    return { type: 'private', to: directDraftRecipients(input.to, user.id), ...text };
  }
  // Unaddressed, or a direct draft to nobody yet: Zulip keeps no recipient, and gives it back as type "".
  return { type: '', to: [], ...text };
}

/** POST /drafts: every draft is checked before any is stored; returns their ids in order. */
export function createDrafts(services: Services, user: UserRecord, inputs: readonly DraftInput[]): Promise<number[]> {
  checkDraftsSynchronized(user);
  return services.write((tx) => {
    const checked = inputs.map((input, i) => checkedDraft(services, user, input, `drafts[${i}]`));
    const drafts: DraftRecord[] = checked.map((draft) => ({ id: services.counters.nextRealmId(services.org.id, 'draft', tx), ...draft }));
    draftBook(services).put(user.id, drafts.map((draft) => [draft.id, draft]), tx);
    if (drafts.length > 0) tx.emit({ type: 'drafts', op: 'add', drafts: drafts.map(draftObject) }, [user.id]);
    return drafts.map((draft) => draft.id);
  });
}

/** PATCH /drafts/{draft_id}: a full replacement of the user's own draft. */
export async function editDraft(services: Services, user: UserRecord, id: number, input: DraftInput): Promise<void> {
  checkDraftsSynchronized(user);
  await services.write((tx) => {
    requireDraft(services, user.id, id);
    const draft: DraftRecord = { id, ...checkedDraft(services, user, input, 'draft') };
    draftBook(services).put(user.id, [[id, draft]], tx);
    tx.emit({ type: 'drafts', op: 'update', draft: draftObject(draft) }, [user.id]);
  });
}

/** DELETE /drafts/{draft_id} */
export async function deleteDraft(services: Services, user: UserRecord, id: number): Promise<void> {
  checkDraftsSynchronized(user);
  await services.write((tx) => {
    requireDraft(services, user.id, id);
    draftBook(services).drop(user.id, [id], tx);
    tx.emit({ type: 'drafts', op: 'remove', draft_id: id }, [user.id]);
  });
}

/**
 * Deletes every stored draft of the user, for turning `enable_drafts_synchronization` off
 * (PATCH /settings calls it inside its own write). As Zulip's do_change_user_setting, no
 * `remove` events are sent: synchronizing stopped, the drafts a client holds are still the
 * user's, and a client told they were removed would throw them away.
 */
export function clearDrafts(services: Services, tx: Transaction, userId: number): void {
  const book = draftBook(services);
  book.drop(userId, book.list(userId).map((draft) => draft.id), tx);
}
