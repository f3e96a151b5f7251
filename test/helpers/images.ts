/** Small images made with sharp, for the tests of uploads, thumbnails and custom emoji. */
import sharp from 'sharp';

/** A plain PNG of the given size. */
export const png = (width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 30, b: 90, alpha: 1 } } }).png().toBuffer();

/** An animated GIF whose frames differ (identical frames would be merged into one). */
export async function animatedGif(width = 80, height = 40, frames = 2): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * frames * 4);
  for (let i = 0; i < raw.length; i += 4) {
    raw[i] = Math.floor(i / (width * height * 4)) * 80;
    raw[i + 3] = 255;
  }
  return sharp(raw, { raw: { width, height: height * frames, channels: 4, pageHeight: height } }).gif().toBuffer();
}
