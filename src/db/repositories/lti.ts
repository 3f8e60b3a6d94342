import type { PrismaClient } from '../../generated/sqlite/client';
import { isForeignKeyViolation, isUniqueViolation } from '../errors';
import { deleteInBatches } from './batches';

/** An LTI 1.3 platform as stored: deployment ids parsed. */
export interface LtiPlatformRow {
  id: string;
  ownerId: string;
  name: string;
  issuer: string;
  clientId: string;
  deploymentIds: string[];
  authLoginUrl: string;
  authTokenUrl: string;
  jwksUrl: string;
  registeredVia: 'manual' | 'dynamic';
  createdAt: Date;
}

export type NewLtiPlatformRow = Omit<LtiPlatformRow, 'id' | 'createdAt'>;

export interface LtiToolKeyRow {
  kid: string;
  publicJwk: string;
  privateSealed: string;
  createdAt: Date;
  retiredAt: Date | null;
}

export interface LtiRepository {
  /** The new platform; 'taken' when its issuer and client id are registered already; null when the owner is gone. */
  createPlatform(row: NewLtiPlatformRow): Promise<LtiPlatformRow | 'taken' | null>;
  /** The owner's platforms, oldest first. */
  platformsOf(ownerId: string): Promise<LtiPlatformRow[]>;
  /** The platform a launch names: by its issuer and client id, whoever owns it. */
  platformByClient(issuer: string, clientId: string): Promise<LtiPlatformRow | null>;
  platformById(id: string): Promise<LtiPlatformRow | null>;
  /** Every registration of an issuer (one per client id), for a login that names no client id. */
  platformsByIssuer(issuer: string): Promise<LtiPlatformRow[]>;
  /** True when the owner had it. */
  deletePlatform(ownerId: string, id: string): Promise<boolean>;
  /** The tool's keys not retired before `retiredAfter` (and those never retired), newest first. */
  toolKeys(retiredAfter: Date): Promise<LtiToolKeyRow[]>;
  addToolKey(row: Omit<LtiToolKeyRow, 'retiredAt'>): Promise<void>;
  /** Retires every key but `keep`, at `at`. */
  retireToolKeysBut(keep: string, at: Date): Promise<void>;
  /** False when the owner is gone. */
  addRegistrationLink(row: { tokenHash: string; ownerId: string; expiresAt: Date }): Promise<boolean>;
  /** Marks the link used at `at` if it is neither used nor expired: its owner, else null. One caller wins. */
  useRegistrationLink(tokenHash: string, at: Date): Promise<string | null>;
  /** Gives a used link back (the registration it began failed), unless it has expired. */
  releaseRegistrationLink(tokenHash: string): Promise<void>;
  /** Removes links expired before `before`, `batch` rows per statement; returns how many. */
  deleteExpiredRegistrationLinks(before: Date, batch: number): Promise<number>;
}

type PlatformRecord = Omit<LtiPlatformRow, 'deploymentIds' | 'registeredVia'> & {
  deploymentIds: string;
  registeredVia: string;
};

const platformRow = (row: PlatformRecord): LtiPlatformRow => ({
  ...row,
  deploymentIds: JSON.parse(row.deploymentIds) as string[],
  registeredVia: row.registeredVia === 'dynamic' ? 'dynamic' : 'manual',
});

export function prismaLtiRepository(db: PrismaClient): LtiRepository {
  return {
    async createPlatform(row) {
      try {
        const created = await db.ltiPlatform.create({
          data: { ...row, deploymentIds: JSON.stringify(row.deploymentIds) },
        });
        return platformRow(created);
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        if (isForeignKeyViolation(error)) return null;
        throw error;
      }
    },
    async platformsOf(ownerId) {
      const rows = await db.ltiPlatform.findMany({
        where: { ownerId },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      return rows.map(platformRow);
    },
    async platformByClient(issuer, clientId) {
      const row = await db.ltiPlatform.findUnique({ where: { issuer_clientId: { issuer, clientId } } });
      return row ? platformRow(row) : null;
    },
    async platformById(id) {
      const row = await db.ltiPlatform.findUnique({ where: { id } });
      return row ? platformRow(row) : null;
    },
    async platformsByIssuer(issuer) {
      return (await db.ltiPlatform.findMany({ where: { issuer }, take: 2 })).map(platformRow);
    },
    async deletePlatform(ownerId, id) {
      const { count } = await db.ltiPlatform.deleteMany({ where: { id, ownerId } });
      return count > 0;
    },
    toolKeys(retiredAfter) {
      return db.ltiToolKey.findMany({
        where: { OR: [{ retiredAt: null }, { retiredAt: { gt: retiredAfter } }] },
        orderBy: [{ createdAt: 'desc' }, { kid: 'desc' }],
      });
    },
    async addToolKey(row) {
      await db.ltiToolKey.create({ data: row });
    },
    async addRegistrationLink(row) {
      try {
        await db.ltiRegistrationLink.create({ data: row });
        return true;
      } catch (error) {
        if (isForeignKeyViolation(error)) return false;
        throw error;
      }
    },
    async useRegistrationLink(tokenHash, at) {
      // One conditional update: of two uses at once, one changes the row and the other none.
      const { count } = await db.ltiRegistrationLink.updateMany({
        where: { tokenHash, usedAt: null, expiresAt: { gt: at } },
        data: { usedAt: at },
      });
      if (count === 0) return null;
      return (await db.ltiRegistrationLink.findUnique({ where: { tokenHash } }))?.ownerId ?? null;
    },
    async releaseRegistrationLink(tokenHash) {
      await db.ltiRegistrationLink.updateMany({ where: { tokenHash }, data: { usedAt: null } });
    },
    deleteExpiredRegistrationLinks(before, batch) {
      return deleteInBatches(
        batch,
        async (take) =>
          (
            await db.ltiRegistrationLink.findMany({
              where: { expiresAt: { lt: before } },
              select: { tokenHash: true },
              take,
            })
          ).map((row) => ({ id: row.tokenHash })),
        (ids) => db.ltiRegistrationLink.deleteMany({ where: { tokenHash: { in: ids } } }),
      );
    },
    async retireToolKeysBut(keep, at) {
      await db.ltiToolKey.updateMany({
        where: { kid: { not: keep }, retiredAt: null },
        data: { retiredAt: at },
      });
    },
  };
}
