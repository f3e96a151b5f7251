/**
 * Image uploads read and thumbnailed with sharp (libvips, as Zulip uses): the image's size is
 * read from its header when it is uploaded, and its thumbnails are made afterwards, one image at
 * a time, off the request path. Serving a thumbnail that is not made yet waits for it, so a
 * thumbnail interrupted by a restart is made when first asked for.
 */
import type SharpModule from 'sharp';

type Sharp = typeof SharpModule;
let loading: Promise<Sharp> | undefined;
/**
 * sharp (with libvips) is loaded on the first image, not at start: it costs ~90 ms and ~28 MiB of
 * RSS, which a server that never sees an image should not pay.
 */
const loadSharp = (): Promise<Sharp> => (loading ??= import('sharp').then((module) => module.default));
import type { Logger } from 'pino';
import { formatName, formatsFor, IMAGE_BOMB_TOTAL_PIXELS, THUMBNAIL_ACCEPT_IMAGE_TYPES, bareContentType, type ImageInfo, type ThumbnailFormat } from '../domain/uploads.js';
import type { FileStore } from './files.js';

/** An image's size as shown (EXIF orientations 5–8 swap the sides) and frames; undefined for what is not an image we read. */
export async function readImageInfo(data: Buffer, contentType: string): Promise<ImageInfo | undefined> {
  if (!THUMBNAIL_ACCEPT_IMAGE_TYPES.has(bareContentType(contentType))) return undefined;
  try {
    const sharp = await loadSharp();
    const metadata = await sharp(data, { animated: true, limitInputPixels: false }).metadata();
    const frames = metadata.pages ?? 1;
    const width = metadata.width;
    const height = metadata.pageHeight ?? metadata.height;
    if (!width || !height) return undefined;
    const pixels = width * height * (frames > 1 ? Math.min(3, frames) * 3 : 1);
    if (pixels > IMAGE_BOMB_TOTAL_PIXELS) return undefined;
    const swapped = (metadata.orientation ?? 1) >= 5;
    return { width: swapped ? height : width, height: swapped ? width : height, frames };
  } catch {
    return undefined;
  }
}

async function makeThumbnail(data: Buffer, format: ThumbnailFormat): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(data, { animated: format.animated, limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS })
    .rotate()
    .resize(format.maxWidth, format.maxHeight, { fit: 'inside', withoutEnlargement: true })
    .webp()
    .toBuffer();
}

export class Thumbnailer {
  /** Images being thumbnailed (or waiting their turn), by hash. */
  private readonly running = new Map<string, Promise<void>>();
  /** One image at a time: thumbnails must not take both cores from requests. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly files: FileStore,
    private readonly logger: Logger,
  ) {}

  /** Makes the image's missing thumbnails; resolves when they are on disk (or failed: logged). */
  ensure(sha: string, image: ImageInfo): Promise<void> {
    const running = this.running.get(sha);
    if (running) return running;
    const job = this.queue.then(() => this.generate(sha, image)).catch((error: unknown) => {
      this.logger.error({ err: error, sha }, 'thumbnail failed');
    }).finally(() => this.running.delete(sha));
    this.running.set(sha, job);
    this.queue = job;
    return job;
  }

  /** Waits for every thumbnail under way (before the data directory goes away). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  private async generate(sha: string, image: ImageInfo): Promise<void> {
    let data: Buffer | undefined;
    for (const format of formatsFor(image)) {
      const name = formatName(format);
      if (await this.files.hasThumbnail(sha, name)) continue;
      data ??= await this.files.read(this.files.blobPath(sha));
      if (!data) return; // the file was deleted meanwhile
      await this.files.putThumbnail(sha, name, await makeThumbnail(data, format));
    }
  }
}

/** A custom emoji's image as stored: resized, and for an animated one its first frame as PNG. */
export interface EmojiImage {
  data: Buffer;
  contentType: string;
  extension: string;
  still?: Buffer;
}

const EMOJI_FORMATS: Readonly<Record<string, { extension: string; format: 'png' | 'jpeg' | 'gif' | 'webp' }>> = {
  'image/png': { extension: '.png', format: 'png' },
  'image/jpeg': { extension: '.jpg', format: 'jpeg' },
  'image/gif': { extension: '.gif', format: 'gif' },
  'image/webp': { extension: '.webp', format: 'webp' },
};

/**
 * Zulip's resize_emoji: a still image cropped to a `size` square in its own format; an animated
 * one fitted into the square with every frame, plus its first frame. Undefined for a type that
 * is not an emoji image; throws when the bytes are not an image.
 */
export async function resizeEmoji(data: Buffer, contentType: string, size: number): Promise<EmojiImage | undefined> {
  const target = EMOJI_FORMATS[bareContentType(contentType)];
  if (!target) return undefined;
  const info = await readImageInfo(data, contentType);
  if (!info) throw new Error('not an image');
  const sharp = await loadSharp();
  if (info.frames === 1) {
    const resized = await sharp(data).rotate().resize(size, size, { fit: 'cover' }).toFormat(target.format).toBuffer();
    return { data: resized, contentType: bareContentType(contentType), extension: target.extension };
  }
  const animated = await sharp(data, { animated: true })
    .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .toFormat(target.format)
    .toBuffer();
  const still = await sharp(data).resize(size, size, { fit: 'cover' }).png().toBuffer();
  return { data: animated, contentType: bareContentType(contentType), extension: target.extension, still };
}
