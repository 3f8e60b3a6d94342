import { z } from 'zod';

/**
 * A picture as a question holds it: the stored image it names (by content hash) and what the
 * owner said it shows. Kept beside the key, not in it (questions.media): a picture never
 * changes a mark, so changing one is an edit of texts.
 */
export const IMAGE_FORMATS = ['png', 'jpeg', 'webp', 'gif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const MEDIA_TYPES: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

const ImageRefSchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  format: z.enum(IMAGE_FORMATS),
  alt: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type ImageRef = z.output<typeof ImageRefSchema>;

/** A question's pictures: its own, and one per option by the key's option order (null: none). */
export const QuestionMediaSchema = z.object({
  image: ImageRefSchema.optional(),
  options: z.array(ImageRefSchema.nullable()).optional(),
});
export type QuestionMedia = z.output<typeof QuestionMediaSchema>;

/** The stored media column read back; anything unreadable counts as none rather than failing a page. */
export function mediaOf(stored: unknown): QuestionMedia | null {
  if (stored === null || stored === undefined) return null;
  const parsed = QuestionMediaSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** The media worth storing: null when it holds no picture at all. */
export function storedMedia(media: QuestionMedia | null | undefined): QuestionMedia | null {
  if (!media) return null;
  const options = media.options?.some((ref) => ref !== null) ? media.options : undefined;
  if (!media.image && !options) return null;
  return { ...(media.image ? { image: media.image } : {}), ...(options ? { options } : {}) };
}

/** Every content hash the media names. */
export function mediaHashes(media: QuestionMedia | null | undefined): string[] {
  if (!media) return [];
  const hashes = media.image ? [media.image.hash] : [];
  for (const ref of media.options ?? []) if (ref) hashes.push(ref.hash);
  return hashes;
}

/** Where a stored picture is served: our origin, by content hash (respondent/image-routes.ts). */
export const IMAGE_PATH_PREFIX = '/images/';
const EXTENSIONS: Record<ImageFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp', gif: 'gif' };

export function imagePath(ref: Pick<ImageRef, 'hash' | 'format'>): string {
  return `${IMAGE_PATH_PREFIX}${ref.hash}.${EXTENSIONS[ref.format]}`;
}

/** The hash named by one of our image paths (`/images/<sha256>.<ext>`), or null. */
export function hashOfImagePath(path: string): string | null {
  const match = /^\/images\/([0-9a-f]{64})\.(png|jpg|webp|gif)$/.exec(path);
  return match ? match[1]! : null;
}

/** A picture as every answer shows it: our own address, its words, its size in pixels. */
export interface ImageRecord {
  url: string;
  alt: string;
  width: number;
  height: number;
}

export const imageRecord = (baseUrl: string, ref: ImageRef): ImageRecord => ({
  url: `${baseUrl}${imagePath(ref)}`,
  alt: ref.alt,
  width: ref.width,
  height: ref.height,
});
