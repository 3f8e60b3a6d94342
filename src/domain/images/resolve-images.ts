import type { NewImage, QuestionRow, StoredImage } from '../../db/repositories';
import type { DomainDeps, ImageSettings } from '../deps';
import { DomainError, invalidInput, type FieldIssue } from '../errors';
import { readUpload } from '../uploads/uploads';
import { LIMITS } from '../limits';
import type { ImageInput, QuestionInput } from '../quiz-input';
import { decodeImage, ImageRefused, type DecodedImage } from './decode-image';
import { FetchBudget, FETCHES_PER_CALL, fetchImage, FetchRefused } from './fetch-image';
import {
  hashOfImagePath,
  IMAGE_FORMATS,
  MEDIA_TYPES,
  mediaOf,
  storedMedia,
  type ImageFormat,
  type ImageRef,
  type QuestionMedia,
} from './image-ref';

/**
 * From the `image` fields a caller sent to pictures a question can hold: our own addresses are
 * looked up, data is decoded, other addresses are fetched (at most FETCHES_PER_CALL per call,
 * never the same address twice for one owner while its picture is kept). Every refusal names the
 * field and what to send instead, and nothing is stored until the quiz's write stores it all.
 */
export const DEFAULT_IMAGE_SETTINGS: ImageSettings = {
  quizQuotaBytes: 20 * 1024 * 1024,
  accountQuotaBytes: 200 * 1024 * 1024,
  allowLoopback: false,
  fetchTimeoutMs: 10_000,
};

/** A question whose `image` fields have been turned into its media. */
export type ResolvedQuestion = QuestionInput & { media?: QuestionMedia | null };

const formatOf = (mediaType: string): ImageFormat =>
  IMAGE_FORMATS.find((format) => MEDIA_TYPES[format] === mediaType) ?? 'png';

const refOf = (
  image: Pick<StoredImage, 'hash' | 'mediaType' | 'width' | 'height'>,
  alt: string,
): ImageRef => ({
  hash: image.hash,
  format: formatOf(image.mediaType),
  alt,
  width: image.width,
  height: image.height,
});

class Resolver {
  private readonly budget = new FetchBudget(FETCHES_PER_CALL);
  private dataBytes = 0;
  readonly blobs = new Map<string, NewImage>();
  readonly sources: Array<{ url: string; hash: string }> = [];
  readonly issues: FieldIssue[] = [];
  private readonly settings: ImageSettings;

  constructor(
    private readonly deps: DomainDeps,
    private readonly ownerId: string,
  ) {
    this.settings = deps.images ?? DEFAULT_IMAGE_SETTINGS;
  }

  private keep(decoded: DecodedImage, alt: string): ImageRef {
    this.blobs.set(decoded.hash, {
      hash: decoded.hash,
      mediaType: decoded.mediaType,
      width: decoded.width,
      height: decoded.height,
      bytes: decoded.bytes,
    });
    return { hash: decoded.hash, format: decoded.format, alt, width: decoded.width, height: decoded.height };
  }

  async resolve(image: ImageInput, at: string): Promise<ImageRef | null> {
    const given = (['url', 'data', 'upload_id'] as const).filter((field) => image[field] !== undefined);
    if (given.length !== 1) {
      this.issues.push({
        field: at,
        code: given.length === 0 ? 'missing' : 'invalid',
        message:
          given.length === 0
            ? "needs the picture: url (a public https address), data (base64) or upload_id (an upload link's)"
            : `takes one of url, data and upload_id, not ${given.join(' and ')}`,
      });
      return null;
    }
    try {
      if (image.data !== undefined) return await this.fromData(image.data, image.alt, `${at}.data`);
      if (image.upload_id !== undefined) {
        return await this.fromUpload(image.upload_id, image.alt, `${at}.upload_id`);
      }
      return await this.fromUrl(image.url!, image.alt, `${at}.url`);
    } catch (error) {
      if (error instanceof ImageRefused || error instanceof FetchRefused) {
        this.issues.push({ field: error.field ?? at, code: 'invalid', message: error.message });
        return null;
      }
      throw error;
    }
  }

  private async fromData(data: string, alt: string, at: string): Promise<ImageRef> {
    const text = data.replace(/^data:image\/[a-z+.-]+;base64,/i, '').replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.length === 0) {
      throw withField(new ImageRefused("is not base64: send the picture's bytes in base64, or use url"), at);
    }
    const bytes = Buffer.from(text, 'base64');
    this.dataBytes += bytes.length;
    if (this.dataBytes > LIMITS.imageDataPerCallBytes) {
      throw withField(
        new ImageRefused(
          'goes past 512 KB of pictures sent as data in one call: send the rest in another call, or by url',
        ),
        at,
      );
    }
    return this.keep(await decodeAt(bytes, at), alt);
  }

  private async fromUpload(uploadId: string, alt: string, at: string): Promise<ImageRef> {
    let file: { bytes: Uint8Array };
    try {
      file = await readUpload(this.deps, this.ownerId, uploadId, at);
    } catch (error) {
      if (error instanceof DomainError && error.issues[0]) {
        throw withField(new ImageRefused(error.issues[0].message), at);
      }
      throw error;
    }
    return this.keep(await decodeAt(Buffer.from(file.bytes), at), alt);
  }

  private async fromUrl(url: string, alt: string, at: string): Promise<ImageRef> {
    const ours = this.ownPath(url);
    if (ours !== undefined) {
      const hash = ours === null ? null : hashOfImagePath(ours);
      const known = hash
        ? (this.blobs.get(hash) ?? (await this.deps.repos.images.known([hash]))[0])
        : undefined;
      if (!known) {
        throw withField(
          new FetchRefused(
            'names a picture of ours that is no longer stored: send the picture again as data or by its original address',
          ),
          at,
        );
      }
      return refOf(known, alt);
    }
    const cached = await this.deps.repos.images.sourceOf(this.ownerId, url);
    if (cached) return refOf(cached, alt);
    const bytes = await fetchImage(
      url,
      {
        allowLoopback: this.settings.allowLoopback,
        resolve: this.settings.resolve,
        timeoutMs: this.settings.fetchTimeoutMs,
      },
      this.budget,
    ).catch((error: unknown) => {
      throw error instanceof FetchRefused ? withField(error, at) : error;
    });
    const ref = this.keep(await decodeAt(bytes, at), alt);
    this.sources.push({ url, hash: ref.hash });
    return ref;
  }

  /** The path of one of our own image addresses; null for our origin's other paths; undefined: not ours. */
  private ownPath(url: string): string | null | undefined {
    const base = this.deps.baseUrl;
    if (!url.startsWith(`${base}/`)) return undefined;
    const path = url.slice(base.length).split(/[?#]/)[0]!;
    return hashOfImagePath(path) ? path : null;
  }
}

function withField<E extends Error & { field?: string }>(error: E, field: string): E {
  error.field = field;
  return error;
}

async function decodeAt(bytes: Buffer, at: string): Promise<DecodedImage> {
  try {
    return await decodeImage(bytes);
  } catch (error) {
    throw error instanceof ImageRefused ? withField(error, at) : error;
  }
}

/** The picture fields one question (or edit operation) sent: absent ones say nothing. */
export interface ImageParts {
  image?: ImageInput | null | undefined;
  options?: ReadonlyArray<{ image?: ImageInput | null | undefined }> | undefined;
}

/**
 * What a question's sent picture fields change: `image` when it sent one (null: none), `options`
 * when any option sent one (each option without: none).
 */
export interface MediaChange {
  image?: ImageRef | null;
  options?: Array<ImageRef | null>;
}

/** The media after a change: what it does not name stays as `kept` had it. */
export function mergeMedia(
  kept: QuestionMedia | null,
  change: MediaChange | undefined,
): QuestionMedia | null {
  if (!change) return kept;
  const image = 'image' in change ? (change.image ?? undefined) : kept?.image;
  const options = 'options' in change ? change.options : kept?.options;
  return storedMedia({ ...(image ? { image } : {}), ...(options ? { options } : {}) });
}

/**
 * Resolves the pictures of a list of questions or operations (`field` names the list in the
 * caller's terms, e.g. `questions`); throws one invalid-input error with every picture that
 * cannot be taken. The changes come back by index (undefined: it sent no picture field).
 */
export async function resolveImageParts(
  deps: DomainDeps,
  ownerId: string,
  parts: readonly ImageParts[],
  field: string,
): Promise<{ changes: Array<MediaChange | undefined>; write: ImageWriteParts }> {
  const resolver = new Resolver(deps, ownerId);
  const changes: Array<MediaChange | undefined> = [];
  for (const [index, part] of parts.entries()) {
    const at = `${field}[${index}]`;
    const optionsSent = (part.options ?? []).some((option) => option.image !== undefined);
    if (part.image === undefined && !optionsSent) {
      changes.push(undefined);
      continue;
    }
    const change: MediaChange = {};
    if (part.image !== undefined) {
      change.image = part.image === null ? null : await resolver.resolve(part.image, `${at}.image`);
    }
    if (optionsSent) {
      change.options = [];
      for (const [place, option] of (part.options ?? []).entries()) {
        change.options.push(
          option.image ? await resolver.resolve(option.image, `${at}.options[${place}].image`) : null,
        );
      }
    }
    changes.push(change);
  }
  if (resolver.issues.length > 0) {
    throw invalidInput(resolver.issues, 'Some pictures cannot be used; nothing was changed');
  }
  return { changes, write: { blobs: [...resolver.blobs.values()], sources: resolver.sources } };
}

export interface ImageWriteParts {
  /** Pictures decoded by this call, stored with the write. */
  blobs: NewImage[];
  /** Addresses fetched by this call, remembered once the write is stored. */
  sources: Array<{ url: string; hash: string }>;
}

/**
 * Resolves the pictures of whole questions; a question that sends no picture field keeps
 * `keep(question)`'s media (the question it names, on an update).
 */
export async function resolveQuestionImages<Q extends QuestionInput>(
  deps: DomainDeps,
  ownerId: string,
  questions: readonly Q[],
  field: string,
  keep?: (question: Q) => QuestionMedia | null,
): Promise<ImageWriteParts & { questions: Array<Q & { media: QuestionMedia | null }> }> {
  const { changes, write } = await resolveImageParts(deps, ownerId, questions, field);
  return {
    ...write,
    questions: questions.map((question, index) => ({
      ...question,
      media: mergeMedia(keep?.(question) ?? null, changes[index]),
    })),
  };
}

/** The stored pictures a question row holds, to carry over when it is sent back without them. */
export const rowMedia = (row: Pick<QuestionRow, 'media'> | undefined) => (row ? mediaOf(row.media) : null);

/** The quota check the write runs once the pictures are counted (db/repositories/images.ts). */
export function quotaCheck(deps: DomainDeps, blobs: readonly NewImage[]) {
  const settings = deps.images ?? DEFAULT_IMAGE_SETTINGS;
  const mb = (bytes: number) =>
    bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
  return {
    blobs,
    allow({ quizBytes, accountBytes }: { quizBytes: number; accountBytes: number }) {
      const over =
        quizBytes > settings.quizQuotaBytes
          ? `the quiz's pictures would take ${mb(quizBytes)}, past its quota of ${mb(settings.quizQuotaBytes)}: use fewer or smaller pictures`
          : accountBytes > settings.accountQuotaBytes
            ? `your quizzes' pictures would take ${mb(accountBytes)}, past the account's quota of ${mb(settings.accountQuotaBytes)}: remove pictures from other quizzes, or use smaller ones`
            : null;
      if (over)
        throw invalidInput([{ field: 'questions', code: 'invalid', message: over }], 'Pictures over quota');
    },
    gone(): never {
      throw invalidInput(
        [
          {
            field: 'questions',
            code: 'invalid',
            message:
              'names a picture that was deleted meanwhile (its last use removed): send the picture again as data or by its original address',
          },
        ],
        'Some pictures cannot be used; nothing was changed',
      );
    },
  };
}

/** Remembers the addresses this call fetched, once its write is stored. */
export async function rememberSources(
  deps: DomainDeps,
  ownerId: string,
  sources: ReadonlyArray<{ url: string; hash: string }>,
): Promise<void> {
  for (const { url, hash } of sources) await deps.repos.images.rememberSource(ownerId, url, hash);
}
