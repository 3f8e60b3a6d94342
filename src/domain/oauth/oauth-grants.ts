import type { Db } from '../../db/database';
import { WRITE_TRANSACTION_OPTIONS } from '../deps';

/**
 * Grants: a person's approval of a client, one active grant per (user, client). They are
 * what "Connected apps" lists; revoking one ends every code and token issued under it.
 */
export interface GrantSummary {
  id: string;
  clientId: string;
  clientName: string | null;
  clientSource: string;
  redirectUri: string;
  scopes: string[];
  createdAt: Date;
  approvedAt: Date;
  lastUsedAt: Date | null;
}

function activeKey(userId: string, clientId: string): string {
  return `${userId} ${clientId}`;
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])].sort();
}

/**
 * Records an approval: the user's active grant for this client, created or widened to
 * include `scopes` (the union: older tokens may still carry earlier scopes). The unique
 * `activeKey` makes two simultaneous approvals meet in one row.
 */
export async function approveGrant(
  db: Db,
  input: { userId: string; clientId: string; scopes: string[]; redirectUri: string },
): Promise<{ id: string }> {
  const key = activeKey(input.userId, input.clientId);
  const now = new Date();
  const grant = await db.oAuthGrant.upsert({
    where: { activeKey: key },
    create: {
      userId: input.userId,
      clientId: input.clientId,
      scope: union([], input.scopes).join(' '),
      redirectUri: input.redirectUri,
      activeKey: key,
      approvedAt: now,
    },
    update: { redirectUri: input.redirectUri, approvedAt: now },
  });
  const scopes = union(grant.scope.split(' ').filter(Boolean), input.scopes);
  if (scopes.join(' ') !== grant.scope) {
    await db.oAuthGrant.update({ where: { id: grant.id }, data: { scope: scopes.join(' ') } });
  }
  return { id: grant.id };
}

export async function listActiveGrants(db: Db, userId: string): Promise<GrantSummary[]> {
  const rows = await db.oAuthGrant.findMany({
    where: { userId, revokedAt: null },
    include: { client: { select: { name: true, source: true } } },
    orderBy: [{ approvedAt: 'desc' }, { id: 'desc' }],
  });
  return rows.map((row) => ({
    id: row.id,
    clientId: row.clientId,
    clientName: row.client.name,
    clientSource: row.client.source,
    redirectUri: row.redirectUri,
    scopes: row.scope.split(' ').filter(Boolean),
    createdAt: row.createdAt,
    approvedAt: row.approvedAt,
    lastUsedAt: row.lastUsedAt,
  }));
}

/**
 * Revokes a grant and, in the same transaction, every token and unused code issued under
 * it. The access-token check joins the grant as well, so the very next request with any of
 * them is refused on every instance. Returns false when there is no such active grant.
 */
export async function revokeGrant(db: Db, userId: string, grantId: string): Promise<boolean> {
  const now = new Date();
  return db.$transaction(async (tx) => {
    const result = await tx.oAuthGrant.updateMany({
      where: { id: grantId, userId, revokedAt: null },
      data: { revokedAt: now, activeKey: null },
    });
    if (result.count === 0) return false;
    await tx.oAuthToken.updateMany({ where: { grantId, revokedAt: null }, data: { revokedAt: now } });
    await tx.oAuthAuthorizationCode.updateMany({
      where: { grantId, consumedAt: null },
      data: { consumedAt: now },
    });
    return true;
  }, WRITE_TRANSACTION_OPTIONS);
}

/** Writes `lastUsedAt` when it is older than `intervalMs` (called off the request's hot path). */
export async function recordGrantUse(db: Db, grantId: string, now: Date, intervalMs: number): Promise<void> {
  await db.oAuthGrant.updateMany({
    where: {
      id: grantId,
      OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - intervalMs) } }],
    },
    data: { lastUsedAt: now },
  });
}
