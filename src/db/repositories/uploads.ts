import type { PrismaClient } from '../../generated/sqlite/client';
import { isForeignKeyViolation } from '../errors';
import { deleteInBatches } from './batches';

/**
 * Uploads: files sent through an upload link or the dashboard, kept in the database (the
 * embedded default has nothing else every instance can read) until they expire. Generic on
 * purpose: bytes, their content type, their owner and an expiry; what a file is for is decided
 * by whoever reads it (an import, an image).
 */
export interface NewUploadRow {
  id: string;
  ownerId: string;
  contentType: string;
  filename: string | null;
  bytes: Uint8Array;
  expiresAt: Date;
}

export interface UploadRow extends NewUploadRow {
  size: number;
  createdAt: Date;
}

export interface UploadRepository {
  /** False when the owner is gone. */
  create(row: NewUploadRow): Promise<boolean>;
  /** The owner's upload, unless it expired by `now` (another owner's is not found either). */
  byOwner(ownerId: string, id: string, now: Date): Promise<UploadRow | null>;
  /** Bytes of the owner's uploads not yet expired by `now`. */
  keptBytes(ownerId: string, now: Date): Promise<number>;
  /** Removes uploads that expired before `before`, `batch` rows per statement; returns how many. */
  deleteExpired(before: Date, batch: number): Promise<number>;
}

export function prismaUploadRepository(db: PrismaClient): UploadRepository {
  return {
    async create(row) {
      try {
        await db.upload.create({
          data: { ...row, bytes: Buffer.from(row.bytes), size: row.bytes.byteLength },
        });
        return true;
      } catch (error) {
        if (isForeignKeyViolation(error)) return false;
        throw error;
      }
    },
    async byOwner(ownerId, id, now) {
      const row = await db.upload.findFirst({ where: { id, ownerId, expiresAt: { gt: now } } });
      return row ? { ...row, bytes: new Uint8Array(row.bytes) } : null;
    },
    async keptBytes(ownerId, now) {
      const kept = await db.upload.aggregate({
        where: { ownerId, expiresAt: { gt: now } },
        _sum: { size: true },
      });
      return kept._sum.size ?? 0;
    },
    deleteExpired(before, batch) {
      const expired = { expiresAt: { lt: before } };
      return deleteInBatches(
        batch,
        (take) => db.upload.findMany({ where: expired, select: { id: true }, take }),
        (ids) => db.upload.deleteMany({ where: { id: { in: ids }, ...expired } }),
      );
    },
  };
}
