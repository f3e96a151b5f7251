/** Reading custom emoji: the organization's list (GET /realm/emoji, register's `realm_emoji`) and their images. */
import { realmEmojiObject } from '../domain/realm-emoji.js';
import type { Services } from '../services.js';
import { RawAnswer } from '../shared/handler-result.js';

/** Every custom emoji, deactivated ones too, by id (as Zulip's `get_emoji`). */
export function realmEmojiState(services: Services): Record<string, Record<string, unknown>> {
  const state: Record<string, Record<string, unknown>> = {};
  for (const emoji of services.realmEmoji.all()) state[String(emoji.id)] = realmEmojiObject(services.org.id, emoji);
  return state;
}

/** GET /user_avatars/{realm_id}/emoji/images/[still/]{file}: public, as Zulip serves them. */
export async function serveEmojiImage(services: Services, realmIdStr: string, fileName: string, still: boolean): Promise<RawAnswer> {
  const emoji = realmIdStr === String(services.org.id) ? services.realmEmoji.byFileName(fileName, still) : undefined;
  const sha = still ? emoji?.still?.sha256 : emoji?.sha256;
  const data = sha === undefined ? undefined : await services.files.read(services.files.blobPath(sha));
  if (!emoji || !data) return new RawAnswer(404, { 'Content-Type': 'text/html; charset=utf-8' }, '<p>File not found.</p>');
  return new RawAnswer(200, {
    'Content-Type': still ? 'image/png' : emoji.contentType,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  }, data);
}
