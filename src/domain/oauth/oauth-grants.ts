import type { Repositories } from '../../db/repositories';

type OAuth = Pick<Repositories, 'oauth'>;

/**
 * Grants: a person's approval of a client, one active grant per (user, client). "Connected
 * apps" lists those whose client holds a token: an approval whose code was never exchanged (a
 * consent retried, a client that gave up) gives nobody access, so it is not an app to show.
 * Revoking one ends every code and token issued under it.
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

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])].sort();
}

/**
 * Records an approval: the user's active grant for this client, created or widened to
 * include `scopes` (the union: older tokens may still carry earlier scopes).
 */
export async function approveGrant(
  { oauth }: OAuth,
  input: { userId: string; clientId: string; scopes: string[]; redirectUri: string },
): Promise<{ id: string }> {
  const grant = await oauth.upsertActiveGrant({
    userId: input.userId,
    clientId: input.clientId,
    scope: union([], input.scopes).join(' '),
    redirectUri: input.redirectUri,
    approvedAt: new Date(),
  });
  const scopes = union(grant.scope.split(' ').filter(Boolean), input.scopes);
  if (scopes.join(' ') !== grant.scope) await oauth.setGrantScope(grant.id, scopes.join(' '));
  return { id: grant.id };
}

/** The grants whose client holds a token usable at `now`: the connected apps. */
export async function listConnectedGrants(
  { oauth }: OAuth,
  userId: string,
  now = new Date(),
): Promise<GrantSummary[]> {
  const rows = await oauth.activeGrants(userId, now);
  return rows.map(({ scope, ...row }) => ({ ...row, scopes: scope.split(' ').filter(Boolean) }));
}

/**
 * Revokes a grant and, in the same transaction, every token and unused code issued under
 * it. The access-token check joins the grant as well, so the very next request with any of
 * them is refused on every instance. Returns false when there is no such active grant.
 */
export async function revokeGrant({ oauth }: OAuth, userId: string, grantId: string): Promise<boolean> {
  return oauth.revokeGrant(userId, grantId, new Date());
}

/** Writes `lastUsedAt` when it is older than `intervalMs` (called off the request's hot path). */
export async function recordGrantUse(
  { oauth }: OAuth,
  grantId: string,
  now: Date,
  intervalMs: number,
): Promise<void> {
  await oauth.recordGrantUse(grantId, now, intervalMs);
}
