import type { PrismaClient } from '../../generated/sqlite/client';

/**
 * Stored pictures, by the SHA-256 of their bytes. The rows (type, size, uses) always live in the
 * database; the bytes sit in the same row as the embedded default. An object store could take
 * the bytes over behind `read` and the writes of `syncQuizImages`: content-addressed, so a put
 * before the transaction and a delete after it are safe to repeat
 * (docs/decisions/0022-image-decoder.md).
 */
export interface NewImage {
  hash: string;
  mediaType: string;
  width: number;
  height: number;
  bytes: Buffer;
}

export interface StoredImage {
  hash: string;
  mediaType: string;
  width: number;
  height: number;
  size: number;
}

/** Bytes a quiz's pictures and an account's pictures take, each picture counted once. */
export interface ImageUsage {
  quizBytes: number;
  accountBytes: number;
}

/** The pictures a write stores, and the check of the usage once they are counted (the quotas). */
export interface ImageWrite {
  blobs: readonly NewImage[];
  allow(usage: ImageUsage): void;
}

export interface ImageRepository {
  /** The picture's bytes and type, to serve; null when no quiz uses it any more. */
  read(hash: string): Promise<{ mediaType: string; bytes: Buffer } | null>;
  /** Which of these pictures are stored. */
  known(hashes: readonly string[]): Promise<StoredImage[]>;
  /** The picture an owner's earlier image_url gave, while it is stored. */
  sourceOf(ownerId: string, url: string): Promise<StoredImage | null>;
  /** Remembers what an address gave (nothing when the picture is gone again). */
  rememberSource(ownerId: string, url: string, hash: string): Promise<void>;
}

type Tx = Pick<PrismaClient, 'imageBlob' | 'quizImage'>;

const META = { hash: true, type: true, width: true, height: true, size: true } as const;
const stored = (row: { hash: string; type: string; width: number; height: number; size: number }) => ({
  hash: row.hash,
  mediaType: row.type,
  width: row.width,
  height: row.height,
  size: row.size,
});

/**
 * Makes the quiz's uses of pictures the `wanted` set, inside the write's transaction: stores the
 * new pictures, checks the quotas when a use was added, and deletes every picture whose last
 * use this write removed. The use rows are the reference count.
 */
export async function syncQuizImages(
  tx: Tx,
  quiz: { id: string; ownerId: string },
  wanted: ReadonlySet<string>,
  write: ImageWrite | undefined,
): Promise<void> {
  for (const blob of write?.blobs ?? []) {
    if (!wanted.has(blob.hash)) continue;
    await tx.imageBlob.upsert({
      where: { hash: blob.hash },
      create: {
        hash: blob.hash,
        type: blob.mediaType,
        width: blob.width,
        height: blob.height,
        size: blob.bytes.length,
        bytes: new Uint8Array(blob.bytes),
      },
      update: {},
    });
  }
  const current = await tx.quizImage.findMany({ where: { quizId: quiz.id }, select: { hash: true } });
  const have = new Set(current.map((row) => row.hash));
  const removed = [...have].filter((hash) => !wanted.has(hash));
  const added = [...wanted].filter((hash) => !have.has(hash));
  if (removed.length > 0)
    await tx.quizImage.deleteMany({ where: { quizId: quiz.id, hash: { in: removed } } });
  if (added.length > 0) {
    await tx.quizImage.createMany({ data: added.map((hash) => ({ quizId: quiz.id, hash })) });
    if (write) {
      const [ofQuiz, ofAccount] = await Promise.all([
        tx.imageBlob.aggregate({ _sum: { size: true }, where: { quizzes: { some: { quizId: quiz.id } } } }),
        tx.imageBlob.aggregate({
          _sum: { size: true },
          where: { quizzes: { some: { quiz: { ownerId: quiz.ownerId } } } },
        }),
      ]);
      write.allow({ quizBytes: ofQuiz._sum.size ?? 0, accountBytes: ofAccount._sum.size ?? 0 });
    }
  }
  await deleteUnused(tx, removed);
}

/** Deletes those of the pictures that no quiz uses. */
export async function deleteUnused(tx: Tx, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  await tx.imageBlob.deleteMany({ where: { hash: { in: [...hashes] }, quizzes: { none: {} } } });
}

/** The pictures a quiz uses, read before it is deleted. */
export async function quizImageHashes(tx: Tx, quizId: string): Promise<string[]> {
  const rows = await tx.quizImage.findMany({ where: { quizId }, select: { hash: true } });
  return rows.map((row) => row.hash);
}

export function prismaImageRepository(db: PrismaClient): ImageRepository {
  return {
    async read(hash) {
      const row = await db.imageBlob.findUnique({ where: { hash }, select: { type: true, bytes: true } });
      return row ? { mediaType: row.type, bytes: Buffer.from(row.bytes) } : null;
    },
    async known(hashes) {
      if (hashes.length === 0) return [];
      const rows = await db.imageBlob.findMany({ where: { hash: { in: [...hashes] } }, select: META });
      return rows.map(stored);
    },
    async sourceOf(ownerId, url) {
      const row = await db.imageSource.findUnique({
        where: { ownerId_url: { ownerId, url } },
        select: { blob: { select: META } },
      });
      return row ? stored(row.blob) : null;
    },
    async rememberSource(ownerId, url, hash) {
      try {
        await db.imageSource.upsert({
          where: { ownerId_url: { ownerId, url } },
          create: { ownerId, url, hash },
          update: { hash },
        });
      } catch {
        // The picture was deleted meanwhile: the address is simply fetched again next time.
      }
    },
  };
}

/** The hashes a question's media column names (its shape: domain/images/image-ref.ts). */
export function hashesOf(questions: ReadonlyArray<{ media?: unknown }>): Set<string> {
  const hashes = new Set<string>();
  const add = (ref: unknown) => {
    const hash = (ref as { hash?: unknown } | null)?.hash;
    if (typeof hash === 'string') hashes.add(hash);
  };
  for (const { media } of questions) {
    if (!media || typeof media !== 'object') continue;
    const { image, options } = media as { image?: unknown; options?: unknown };
    add(image);
    if (Array.isArray(options)) options.forEach(add);
  }
  return hashes;
}
