/**
 * Adding and deactivating custom emoji (Zulip's upload_emoji, check_add_realm_emoji and
 * do_remove_realm_emoji): the rules in Zulip's order, the image resized and stored durably
 * before its record, and the `realm_emoji` event with every custom emoji to everyone.
 */
import { fileInUse } from '../queries/stored-files.js';
import { randomBytes } from 'node:crypto';
import { ApiError, badRequest } from '../domain/errors.js';
import { inRealmGroupSetting, mayNameEmoji, refusalError } from '../domain/permissions.js';
import {
  checkEmojiName, EMOJI_SIZE, isBuiltInEmoji, MAX_EMOJI_FILE_SIZE_MIB, mayDeactivateEmoji, normalizeEmojiName, type RealmEmojiRecord,
} from '../domain/realm-emoji.js';
import { isAdmin } from '../domain/roles.js';
import { fileTooLargeMessage, uploadContentType } from '../domain/uploads.js';
import type { UserRecord } from '../domain/users.js';
import type { UploadedFile } from '../shared/uploaded-file.js';
import type { Services } from '../services.js';
import { resizeEmoji, type EmojiImage } from '../store/thumbnails.js';
import type { HeldFile } from '../store/files.js';
import type { Transaction } from '../store/transaction.js';
import { realmEmojiState } from '../queries/realm-emoji.js';

function emitRealmEmoji(services: Services, tx: Transaction): void {
  const everyone = [...services.org.users.all()].filter((user) => user.isActive).map((user) => user.id);
  tx.emit({ type: 'realm_emoji', op: 'update', realm_emoji: realmEmojiState(services) }, everyone);
}

function checkNameFree(services: Services, name: string): void {
  if (services.realmEmoji.activeByName(name)) throw badRequest('A custom emoji with this name already exists.');
}

async function readEmojiImage(file: UploadedFile): Promise<EmojiImage> {
  let image: EmojiImage | undefined;
  try {
    image = await resizeEmoji(file.data, uploadContentType(file.contentType, file.filename), EMOJI_SIZE);
  } catch {
    throw new ApiError('BAD_IMAGE', 'Could not decode image; did you upload an image file?');
  }
  if (!image) throw badRequest('Invalid image format');
  return image;
}

/** POST /realm/emoji/{emoji_name} */
export async function addRealmEmoji(services: Services, user: UserRecord, rawName: string, files: readonly UploadedFile[]): Promise<void> {
  const { org } = services;
  const name = normalizeEmojiName(rawName);
  checkEmojiName(name);
  if (!inRealmGroupSetting(user, org.realm, 'can_add_custom_emoji_group', org.groups)) throw badRequest('Insufficient permission');
  checkNameFree(services, name);
  if (files.length !== 1) throw badRequest('You must upload exactly one file.');
  const refusal = mayNameEmoji(user, isBuiltInEmoji(name));
  if (refusal) throw refusalError(refusal);
  const file = files[0];
  if (file.data.length > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) throw badRequest(fileTooLargeMessage(MAX_EMOJI_FILE_SIZE_MIB));
  const image = await readEmojiImage(file);
  const held: HeldFile[] = [await services.files.put(image.data)];
  try {
    if (image.still) held.push(await services.files.put(image.still));
    await services.write((tx) => {
      // Again: another emoji of this name may have been added meanwhile.
      checkNameFree(services, name);
      const stem = randomBytes(4).toString('hex');
      const record: RealmEmojiRecord = {
        id: services.counters.nextRealmId(org.id, 'realm_emoji', tx),
        name,
        fileName: stem + image.extension,
        sha256: held[0].sha,
        contentType: image.contentType,
        ...(image.still ? { still: { fileName: `${stem}.png`, sha256: held[1].sha } } : {}),
        authorId: user.id,
        deactivated: false,
      };
      services.realmEmoji.save(record, tx);
      emitRealmEmoji(services, tx);
    });
  } catch (error) {
    // Refused after all (the name taken meanwhile): the bytes go unless something else names them.
    for (const file of held) {
      file.release();
      services.files.removeUnlessUsed(file.sha, (sha) => fileInUse(services, sha));
    }
    throw error;
  }
  for (const file of held) file.release();
}

/** DELETE /realm/emoji/{emoji_name}: deactivates (old messages and reactions keep showing it). */
export async function deactivateRealmEmoji(services: Services, user: UserRecord, name: string): Promise<void> {
  await services.write((tx) => {
    const emoji = services.realmEmoji.activeByName(name);
    if (!emoji) throw new ApiError('BAD_REQUEST', `Emoji '${name}' does not exist`, 404);
    if (!mayDeactivateEmoji(user.id, isAdmin(user.role), emoji)) throw badRequest('Must be an organization administrator or emoji author');
    services.realmEmoji.save({ ...emoji, deactivated: true }, tx);
    emitRealmEmoji(services, tx);
  });
}
