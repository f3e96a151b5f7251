/** Uploads made on a cluster for the failover test: a file, an image (with its thumbnail) and one to delete later. */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Api } from './client.js';
import { png } from './images.js';
import { fetchRaw, uploaded } from './uploads.js';

export interface ClusterUpload {
  /** The URL path (`/user_uploads/…`). */
  url: string;
  bytes: Buffer;
  sha: string;
}

export interface ClusterUploads {
  file: ClusterUpload;
  image: ClusterUpload;
  /** The image's thumbnail as its first owner served it. */
  thumbnail: Buffer;
  /** A file deleted after the failover (its bytes must leave the bucket). */
  doomed: ClusterUpload & { name: string };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function one(api: Api, name: string, bytes: Buffer, type: string): Promise<ClusterUpload> {
  const answer = await uploaded(api, name, bytes, type);
  return { url: answer.url, bytes, sha: sha256(bytes) };
}

export function thumbnailUrl(upload: ClusterUpload): string {
  return upload.url.replace('/user_uploads/', '/user_uploads/thumbnail/') + '/840x560.webp';
}

/** Three uploads (random bytes, so that no earlier run's object is reused) and the image's thumbnail. */
export async function uploadSome(api: Api): Promise<ClusterUploads> {
  const file = await one(api, 'notes.bin', randomBytes(300_000), 'application/octet-stream');
  const image = await one(api, 'picture.png', await png(900 + randomBytes(1)[0]!, 600), 'image/png');
  const doomedName = `doomed-${randomBytes(4).toString('hex')}.txt`;
  const doomed = { ...(await one(api, doomedName, randomBytes(5_000), 'text/plain')), name: doomedName };
  const thumbnail = await fetchRaw(api, thumbnailUrl(image));
  if (thumbnail.status !== 200) throw new Error(`thumbnail: ${thumbnail.status}`);
  return { file, image, thumbnail: thumbnail.bytes, doomed };
}

/** Whether a node's data directory holds the bytes of an upload of the root organization. */
export function storedOn(dataDir: string, sha: string): boolean {
  return existsSync(join(dataDir, 'uploads', 'blobs', sha.slice(0, 2), sha));
}
