/**
 * The emoji data file named by `server_emoji_data_url`: `{"code_to_names": {code: [names…]}}` for
 * every Unicode emoji Parley accepts, canonical name first. Clients (the mobile app) fetch it at
 * start for their emoji picker and autocomplete. Its path carries a hash of its content, as
 * Zulip's does, so it can be cached for a year and a change of the emoji set changes the URL.
 */
import { createHash } from 'node:crypto';
import { emojiCodeToNames } from '../domain/emoji.js';

export interface EmojiDataFile {
  /** Absolute path on this server, below `/static/`. */
  path: string;
  body: string;
  contentType: string;
  etag: string;
  cacheControl: string;
}

let file: EmojiDataFile | undefined;

/** Built once per process, on first use (register or the first fetch). */
export function emojiDataFile(): EmojiDataFile {
  if (file) return file;
  const body = JSON.stringify({ code_to_names: Object.fromEntries(emojiCodeToNames()) });
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 20);
  file = {
    path: `/static/generated/emoji/emoji_api.${hash}.json`,
    body,
    contentType: 'application/json',
    etag: `"${hash}"`,
    cacheControl: 'public, max-age=31536000, immutable',
  };
  return file;
}
