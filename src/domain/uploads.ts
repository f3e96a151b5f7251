/**
 * Uploaded files (Zulip's Attachment): the record, how a path id and a served file name are made,
 * which types are shown inline, byte ranges, the organization's limits and who may read a file.
 */
import type { RealmRecord } from './realm.js';

/** Where an image upload's preview comes from: its size as shown (orientation applied) and its frames. */
export interface ImageInfo {
  width: number;
  height: number;
  frames: number;
}

export interface AttachmentRecord {
  id: number;
  /** `{realm_id}/{xx}/{token}/{sanitized name}`: the file's URL is `/user_uploads/{pathId}`. */
  pathId: string;
  /** The file name as uploaded (Zulip's `file_name`). */
  name: string;
  size: number;
  /** SHA-256 of the bytes, hex: where the bytes are stored (content-addressed). */
  sha256: string;
  contentType: string;
  ownerId: number;
  /** Unix milliseconds (what Zulip reports as `create_time` before feature level 443). */
  createTime: number;
  /** Messages whose content links the file, ascending. */
  messageIds: number[];
  /** Set for images sharp could read: they get thumbnails and an inline preview. */
  image?: ImageInfo;
}

/** Most Linux file systems limit a path component to 255 bytes; the sanitized name is one. */
const MAX_FILE_NAME_BYTES = 255;

function truncateFileName(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name) <= maxBytes) return name;
  const dot = name.lastIndexOf('.');
  let stem = dot > 0 ? name.slice(0, dot) : name;
  let extension = dot > 0 ? name.slice(dot) : '';
  if (Buffer.byteLength(extension) >= maxBytes) {
    stem = name;
    extension = '';
  }
  const room = maxBytes - Buffer.byteLength(extension);
  // Cut by characters, so that no multi-byte character is split.
  let kept = '';
  for (const char of stem) {
    if (Buffer.byteLength(kept + char) > room) break;
    kept += char;
  }
  return kept + extension;
}

/**
 * Zulip's `sanitize_name`: safe in a file system and a URL. Unicode letters and digits stay;
 * other characters but `.`, `-` and `_` go; runs of spaces and dashes become one dash.
 */
export function sanitizeFileName(value: string): string {
  let name = value.normalize('NFKC').replace(/[^\p{L}\p{N}\p{M}_\s.-]/gu, '').trim();
  name = name.replace(/[-\s]+/gu, '-');
  name = truncateFileName(name, MAX_FILE_NAME_BYTES);
  if (name === '' || name === '.' || name === '..') return 'uploaded-file';
  return name;
}

/** A message upload's path id, as Zulip's local backend builds it: realm, a random byte in hex, a random token, the name. */
export function uploadPathId(realmId: number, randomByte: number, token: string, sanitizedName: string): string {
  return `${realmId}/${randomByte.toString(16)}/${token}/${sanitizedName}`;
}

export const UPLOADS_URL_PREFIX = '/user_uploads/';

/**
 * The path ids a rendered message links to (`<a href="/user_uploads/...">`): Zulip's
 * `potential_attachment_path_ids`. Links inside code are not links, so they do not count.
 */
export function linkedPathIds(html: string): string[] {
  // Most messages link no upload; `matchAll` copies its expression on every call (profiled at
  // ~5% of a burst of sends), a substring test does not.
  if (!html.includes(UPLOADS_URL_PREFIX)) return [];
  const found = new Set<string>();
  for (const match of html.matchAll(/<a href="\/user_uploads\/(\d+\/[^"?#]+)"/g)) {
    if (!match[1].startsWith('thumbnail/') && !match[1].startsWith('temporary/')) found.add(unescapeAttribute(match[1]));
  }
  return [...found];
}

function unescapeAttribute(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Types a browser may show in place (Zulip's INLINE_MIME_TYPES); anything else is served as a download. */
export const INLINE_MIME_TYPES: ReadonlySet<string> = new Set([
  'application/pdf',
  'audio/aac', 'audio/flac', 'audio/mp4', 'audio/mpeg', 'audio/wav', 'audio/webm',
  'image/apng', 'image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp',
  'text/plain',
  'video/mp4', 'video/webm',
]);

const TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  txt: 'text/plain', md: 'text/markdown', csv: 'text/csv', html: 'text/html', htm: 'text/html', json: 'application/json',
  pdf: 'application/pdf', zip: 'application/zip', gz: 'application/gzip', tar: 'application/x-tar',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif',
  svg: 'image/svg+xml', bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff', heic: 'image/heic',
  mp3: 'audio/mpeg', wav: 'audio/wav', flac: 'audio/flac', aac: 'audio/aac', m4a: 'audio/mp4',
  mp4: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime',
  py: 'text/x-python', js: 'text/javascript',
};

/**
 * The type the client sent, else one guessed from the file name, else `application/octet-stream`
 * (Zulip's `get_file_info`). `application/octet-stream` counts as none sent: browsers' FormData
 * sends it for any file it cannot name.
 */
export function uploadContentType(sent: string, fileName: string): string {
  const bare = sent.split(';', 1)[0].trim().toLowerCase();
  if (bare !== '' && bare !== 'application/octet-stream' && /^[\w.+-]+\/[\w.+-]+$/.test(bare)) return sent.trim();
  const dot = fileName.lastIndexOf('.');
  const guessed = dot >= 0 ? TYPES_BY_EXTENSION[fileName.slice(dot + 1).toLowerCase()] : undefined;
  return guessed ?? 'application/octet-stream';
}

export function bareContentType(contentType: string): string {
  return contentType.split(';', 1)[0].trim().toLowerCase();
}

/** Zulip adds a charset to inline text it serves; Parley says UTF-8 when the bytes are UTF-8. */
export function withCharset(contentType: string, data: Buffer): string {
  if (bareContentType(contentType) !== 'text/plain' || /charset=/i.test(contentType)) return contentType;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return `${contentType}; charset=utf-8`;
  } catch {
    return contentType;
  }
}

/** RFC 6266 as Zulip writes it: an ASCII name quoted, any other URI-encoded (RFC 8187). */
export function contentDisposition(fileName: string, inline: boolean): string {
  const disposition = inline ? 'inline' : 'attachment';
  const ascii = /^[\x20-\x7e]*$/.test(fileName);
  const expression = ascii
    ? `filename="${fileName.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
    : `filename*=utf-8''${encodeURIComponent(fileName)}`;
  return `${disposition}; ${expression}`;
}

/** A byte range, both ends included. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The one range a `Range` header asks of a file of `size` bytes: undefined to serve the whole
 * file (no header, another unit, several ranges, a malformed one: RFC 9110 lets a server ignore
 * them), 'unsatisfiable' when it starts past the end (416).
 */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const last = match[2] === '' ? Infinity : Number(match[2]);
  if (last < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}

const MIB = 1024 * 1024;

/** The largest file a member may upload, in MiB (`max_file_upload_size_mib`, a setting of the organization). */
export function maxUploadMib(realm: RealmRecord): number {
  const value = realm.settings.max_file_upload_size_mib;
  return typeof value === 'number' ? value : DEFAULT_MAX_UPLOAD_MIB;
}

export const DEFAULT_MAX_UPLOAD_MIB = 25;

/** The organization's upload quota in bytes, or null for none (`upload_quota_mib`). */
export function uploadQuotaBytes(realm: RealmRecord): number | null {
  const value = realm.settings.upload_quota_mib;
  return typeof value === 'number' ? value * MIB : null;
}

export function uploadQuotaMib(realm: RealmRecord): number | null {
  const value = realm.settings.upload_quota_mib;
  return typeof value === 'number' ? value : null;
}

export const fileTooLargeMessage = (mib: number) => `Uploaded file is larger than the allowed limit of ${mib} MiB`;
export const QUOTA_EXCEEDED_MESSAGE = "Upload would exceed your organization's upload quota.";

/**
 * Zulip's `validate_attachment_request` for a user: the uploader, or anyone who may read one of
 * the messages linking the file. `mayReadMessage` is the message access rule.
 */
export function mayReadAttachment(userId: number, attachment: AttachmentRecord, mayReadMessage: (messageId: number) => boolean): boolean {
  if (attachment.ownerId === userId) return true;
  return attachment.messageIds.some(mayReadMessage);
}

/** The API's attachment object at feature level 416: `create_time` in ms, `messages` with ids and dates. */
export function attachmentObject(attachment: AttachmentRecord, dateSent: (messageId: number) => number | undefined): Record<string, unknown> {
  return {
    id: attachment.id,
    name: attachment.name,
    path_id: attachment.pathId,
    size: attachment.size,
    create_time: attachment.createTime,
    messages: attachment.messageIds.flatMap((id) => {
      const date = dateSent(id);
      return date === undefined ? [] : [{ id, date_sent: date }];
    }),
  };
}

// Thumbnails (Zulip 9's zerver/lib/thumbnail.py).

/** Content types whose bytes are read as images at all. */
export const THUMBNAIL_ACCEPT_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/avif', 'image/gif', 'image/heic', 'image/jpeg', 'image/png', 'image/tiff', 'image/webp',
]);
/** Images above this many pixels are not decoded (an image bomb). */
export const IMAGE_BOMB_TOTAL_PIXELS = 90_000_000;

export interface ThumbnailFormat {
  extension: 'webp';
  maxWidth: number;
  maxHeight: number;
  animated: boolean;
}

/** The formats made for every image (the first that matches an image's animation goes into the message). */
export const THUMBNAIL_FORMATS: readonly ThumbnailFormat[] = [
  { extension: 'webp', maxWidth: 840, maxHeight: 560, animated: true },
  { extension: 'webp', maxWidth: 840, maxHeight: 560, animated: false },
];

export function formatName(format: ThumbnailFormat): string {
  return `${format.maxWidth}x${format.maxHeight}${format.animated ? '-anim' : ''}.${format.extension}`;
}

export function parseFormatName(name: string): ThumbnailFormat | undefined {
  return THUMBNAIL_FORMATS.find((format) => formatName(format) === name);
}

/** The formats an image gets: animated ones only when it has several frames. */
export function formatsFor(image: ImageInfo): ThumbnailFormat[] {
  return THUMBNAIL_FORMATS.filter((format) => !format.animated || image.frames > 1);
}

/** The thumbnail a message shows for an image (Zulip's `get_default_thumbnail_url`). */
export function defaultThumbnail(pathId: string, image: ImageInfo): { url: string; animated: boolean } {
  const format = THUMBNAIL_FORMATS.find((f) => f.animated === image.frames > 1) ?? THUMBNAIL_FORMATS[0];
  return { url: `${UPLOADS_URL_PREFIX}thumbnail/${pathId}/${formatName(format)}`, animated: format.animated };
}
