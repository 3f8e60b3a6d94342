import { createHash } from 'node:crypto';
import type { ImageRepository, NewImage } from '../../db/repositories';
import { decodeImage, ImageRefused } from '../images/decode-image';
import {
  IMAGE_FORMATS,
  MEDIA_TYPES,
  storedMedia,
  type ImageRef,
  type QuestionMedia,
} from '../images/image-ref';
import { LIMITS } from '../limits';
import type { ImportedQuestion } from './assemble';
import { DEFAULT_IMAGE_ALT, note, type SourceBank, type SourceImage } from './bank';

/**
 * The pictures a bank carries with their bytes (Moodle XML's `<file>`, a package's files), taken
 * through the same decoder as every picture sent to create_quiz (decode-image.ts: recognised by
 * content, size and pixel limits, metadata gone, scaled down), whatever format they came in.
 * Nothing is stored here: the import's write stores the decoded pictures with its questions, under
 * the same quotas, de-duplicated by content hash; a file that is already one of our stored pictures
 * (an export of ours read back) is that picture, not decoded again. A picture that does not decode makes its
 * question unusable, listed with the file's name: a question is never imported without a
 * picture its source shows.
 */

export interface BankPictures {
  /** The decoded pictures, each once, for the write. */
  blobs: NewImage[];
}

/**
 * Decodes the pictures of the bank's usable questions and sets each question's `media`; a
 * question whose picture cannot be used loses its `input` and gets the reason among its problems.
 */
export async function decodeBankPictures(
  images: Pick<ImageRepository, 'known'>,
  bank: SourceBank,
  questions: ImportedQuestion[],
): Promise<BankPictures> {
  const blobs = new Map<string, NewImage>();
  const decode = async (image: SourceImage): Promise<ImageRef | string> => {
    const alt = (image.alt ?? DEFAULT_IMAGE_ALT).slice(0, LIMITS.imageAltMax);
    const [stored] = await images.known([createHash('sha256').update(image.bytes).digest('hex')]);
    const format = IMAGE_FORMATS.find((name) => MEDIA_TYPES[name] === stored?.mediaType);
    if (stored && format) {
      return { hash: stored.hash, format, alt, width: stored.width, height: stored.height };
    }
    try {
      const decoded = await decodeImage(image.bytes);
      blobs.set(decoded.hash, {
        hash: decoded.hash,
        mediaType: decoded.mediaType,
        width: decoded.width,
        height: decoded.height,
        bytes: decoded.bytes,
      });
      return {
        hash: decoded.hash,
        format: decoded.format,
        alt,
        width: decoded.width,
        height: decoded.height,
      };
    } catch (error) {
      if (error instanceof ImageRefused) return `the picture "${image.name}" ${error.message}`;
      throw error;
    }
  };
  for (const [index, item] of questions.entries()) {
    const source = bank.questions[index];
    if (!source || !item.input) continue;
    const answerImages = source.answers.map((answer) => answer.image ?? null);
    // Options made one for one from the source's answers (the choice types) hold their pictures.
    const optionsHold = item.input.options?.length === source.answers.length;
    if (!optionsHold && answerImages.some((image) => image)) note(item.lost, 'pictures of answers');
    if (!source.image && !(optionsHold && answerImages.some((image) => image))) continue;
    const refused: string[] = [];
    const media: QuestionMedia = {};
    if (source.image) {
      const ref = await decode(source.image);
      if (typeof ref === 'string') refused.push(ref);
      else media.image = ref;
    }
    if (optionsHold) {
      media.options = [];
      for (const image of answerImages) {
        const ref = image ? await decode(image) : null;
        if (typeof ref === 'string') refused.push(ref);
        media.options.push(typeof ref === 'string' ? null : ref);
      }
    }
    if (refused.length > 0) {
      item.problems.push(...refused.map((reason) => `${item.at}: ${reason}`));
      delete item.input;
      continue;
    }
    item.media = storedMedia(media);
  }
  // Only the pictures of questions still usable are stored.
  const used = new Set(
    questions.flatMap((item) =>
      item.input && item.media
        ? [item.media.image?.hash, ...(item.media.options ?? []).map((ref) => ref?.hash)]
        : [],
    ),
  );
  return { blobs: [...blobs.values()].filter((blob) => used.has(blob.hash)) };
}
