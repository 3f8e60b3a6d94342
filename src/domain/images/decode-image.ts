import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { ImageFormat } from './image-ref';
import { MEDIA_TYPES } from './image-ref';

/**
 * Every picture this service stores passes here, whatever door it came through: recognised by
 * its first bytes (never its name or declared type), its declared size checked before a pixel is
 * decoded, then decoded and written again by libvips (sharp, docs/decisions/0022-image-decoder.md):
 * metadata gone, turned upright, scaled down to fit, animation flattened to its first frame.
 */
export const IMAGE_LIMITS = {
  /** The most a picture may weigh, as sent and as stored. */
  maxBytes: 2 * 1024 * 1024,
  /** Declared width × height above this is refused unread (a small file can declare a huge canvas). */
  maxPixels: 40_000_000,
  /** Longer sides are scaled down to this: enough for a phone's full-screen view. */
  maxSide: 1600,
} as const;

sharp.cache(false);

export interface DecodedImage {
  /** SHA-256 (hex) of `bytes`: the picture's name and the key that de-duplicates it. */
  hash: string;
  format: ImageFormat;
  mediaType: string;
  width: number;
  height: number;
  bytes: Buffer;
}

export class ImageRefused extends Error {
  override readonly name = 'ImageRefused';
  /** The field it is about, in the caller's terms, once known. */
  field?: string;
}

/** The format the first bytes announce, or null (SVG, HTML and everything else). */
export function sniffFormat(bytes: Uint8Array): ImageFormat | null {
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
    return 'gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && Buffer.from(bytes.subarray(8, 12)).toString('latin1') === 'WEBP')
    return 'webp';
  return null;
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export async function decodeImage(input: Uint8Array): Promise<DecodedImage> {
  if (input.length > IMAGE_LIMITS.maxBytes) {
    throw new ImageRefused(
      `is ${mb(input.length)}: a picture may be at most ${mb(IMAGE_LIMITS.maxBytes)}; send a smaller one`,
    );
  }
  const format = sniffFormat(input);
  if (!format) {
    throw new ImageRefused(
      'is not a PNG, JPEG, WebP or GIF picture (judged by its content, not its name; SVG is not taken)',
    );
  }
  let declared: sharp.Metadata;
  try {
    // Reads the header only: nothing is decoded yet.
    declared = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRefused(`is not a readable ${format.toUpperCase()} picture: its data is damaged`);
  }
  const width = declared.width ?? 0;
  const height = declared.height ?? 0;
  if (declared.format !== format && !(format === 'jpeg' && declared.format === 'jpeg')) {
    throw new ImageRefused(`is not a readable ${format.toUpperCase()} picture`);
  }
  if (width < 1 || height < 1 || width * height > IMAGE_LIMITS.maxPixels) {
    throw new ImageRefused(
      `declares ${width} × ${height} pixels: at most ${IMAGE_LIMITS.maxPixels / 1_000_000} million pixels are taken; send a smaller picture`,
    );
  }
  let output: { data: Buffer; info: sharp.OutputInfo };
  try {
    // The first frame only (`pages: 1`): an animation is flattened, see the decision record.
    let pipeline = sharp(input, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: 'error', pages: 1 })
      .rotate()
      .resize({
        width: IMAGE_LIMITS.maxSide,
        height: IMAGE_LIMITS.maxSide,
        fit: 'inside',
        withoutEnlargement: true,
      });
    pipeline =
      format === 'png'
        ? pipeline.png({ compressionLevel: 9 })
        : format === 'jpeg'
          ? pipeline.jpeg({ quality: 85, mozjpeg: true })
          : format === 'webp'
            ? pipeline.webp({ quality: 85 })
            : pipeline.gif();
    output = await pipeline.toBuffer({ resolveWithObject: true });
  } catch {
    throw new ImageRefused(`is not a readable ${format.toUpperCase()} picture: its data is damaged`);
  }
  if (output.data.length > IMAGE_LIMITS.maxBytes) {
    throw new ImageRefused(
      `is ${mb(output.data.length)} once stored: at most ${mb(IMAGE_LIMITS.maxBytes)}; send a smaller picture`,
    );
  }
  return {
    hash: createHash('sha256').update(output.data).digest('hex'),
    format,
    mediaType: MEDIA_TYPES[format],
    width: output.info.width,
    height: output.info.height,
    bytes: output.data,
  };
}
