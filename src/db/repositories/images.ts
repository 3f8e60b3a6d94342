import type { PrismaClient } from '../../generated/sqlite/client';
import type { Dialect } from '../dialect';

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
  /** Throws the caller's error for pictures named by hash that were deleted before the write could hold them. */
  gone?(hashes: readonly string[]): never;
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

type Tx = Pick<PrismaClient, 'imageBlob' | 'quizImage' | '$queryRawUnsafe' | '$executeRawUnsafe'>;

const META = { hash: true, type: true, width: true, height: true, size: true } as const;
const stored = (row: { hash: string; type: string; width: number; height: number; size: number }) => ({
  hash: row.hash,
  mediaType: row.type,
  width: row.width,
  height: row.height,
  size: row.size,
});

const byHash = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Locks the pictures' rows, in one statement and in hash order (so two writes never wait on each
 * other in a circle), and answers which are stored. Every write that adds or removes a use of a
 * picture holds its row until it commits: a write that removes the last use deletes the picture
 * only once no write adding a use is in flight, and one adding a use then finds it gone rather
 * than failing on the foreign key. On SQLite the write transaction holds the database already.
 */
async function lockBlobs(tx: Tx, dialect: Dialect, hashes: readonly string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const p = dialect.placeholders();
  const list = hashes.map(() => p()).join(', ');
  const rows = await tx.$queryRawUnsafe<Array<{ hash: string }>>(
    `SELECT "hash" FROM "image_blobs" WHERE "hash" IN (${list}) ORDER BY "hash"${dialect.forUpdate}`,
    ...hashes,
  );
  return new Set(rows.map((row) => row.hash));
}

/** Stores the pictures not stored yet; one already there (the same bytes) is left as it is. */
async function insertBlobs(tx: Tx, dialect: Dialect, blobs: readonly NewImage[]): Promise<void> {
  const at = dialect.timestamp(new Date());
  for (const blob of [...blobs].sort((a, b) => byHash(a.hash, b.hash))) {
    const p = dialect.placeholders();
    await tx.$executeRawUnsafe(
      `INSERT INTO "image_blobs" ("hash", "type", "width", "height", "size", "bytes", "createdAt")
       VALUES (${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${dialect.timestampParam(p())})
       ON CONFLICT ("hash") DO NOTHING`,
      blob.hash,
      blob.mediaType,
      blob.width,
      blob.height,
      blob.bytes.length,
      new Uint8Array(blob.bytes),
      at,
    );
  }
}

/**
 * Makes the quiz's uses of pictures the `wanted` set, inside the write's transaction: stores the
 * new pictures, checks the quotas when a use was added, and deletes every picture whose last
 * use this write removed. The use rows are the reference count.
 */
export async function syncQuizImages(
  tx: Tx,
  dialect: Dialect,
  quiz: { id: string; ownerId: string },
  wanted: ReadonlySet<string>,
  write: ImageWrite | undefined,
): Promise<void> {
  const current = await tx.quizImage.findMany({ where: { quizId: quiz.id }, select: { hash: true } });
  const have = new Set(current.map((row) => row.hash));
  const removed = [...have].filter((hash) => !wanted.has(hash));
  const added = [...wanted].filter((hash) => !have.has(hash));
  if (removed.length === 0 && added.length === 0) return;
  if (added.length > 0 && write) {
    // One account's writes that add pictures run one after another, so that two of them cannot
    // both pass the quota each counted without the other.
    const lock = dialect.keyLock(`images:${quiz.ownerId}`);
    if (lock) await tx.$executeRawUnsafe(lock.text, ...lock.values);
  }
  const bytesOf = new Map((write?.blobs ?? []).map((blob) => [blob.hash, blob]));
  const toStore = added.flatMap((hash) => bytesOf.get(hash) ?? []);
  await insertBlobs(tx, dialect, toStore);
  let held = await lockBlobs(tx, dialect, [...added, ...removed].sort(byHash));
  // Deleted by a write that removed its last use while this one waited: stored again when its
  // bytes are at hand, refused otherwise.
  const missing = added.filter((hash) => !held.has(hash));
  if (missing.length > 0) {
    const again = missing.flatMap((hash) => bytesOf.get(hash) ?? []);
    await insertBlobs(tx, dialect, again);
    held = await lockBlobs(tx, dialect, missing);
    const lost = missing.filter((hash) => !held.has(hash));
    if (lost.length > 0) {
      if (write?.gone) write.gone(lost);
      throw new Error(`pictures no longer stored: ${lost.join(', ')}`);
    }
  }
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

/**
 * Deletes those of the pictures that no quiz uses. The caller holds their rows (lockBlobs), so
 * the uses this statement counts include every write that committed before it.
 */
async function deleteUnused(tx: Tx, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  await tx.imageBlob.deleteMany({ where: { hash: { in: [...hashes] }, quizzes: { none: {} } } });
}

/** After a quiz's deletion (its uses gone with it): deletes the pictures no other quiz uses. */
export async function deleteUnusedImages(tx: Tx, dialect: Dialect, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  await lockBlobs(tx, dialect, [...hashes].sort(byHash));
  await deleteUnused(tx, hashes);
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
