import type { ConnectedApp, ConnectedAppsProvider } from '../identity/connected-apps';
import type { Repositories } from '../db/repositories';
import { listConnectedGrants, revokeGrant } from '../domain/oauth/oauth-grants';
import { clientDisplayName } from './consent-page';
import { describeRedirect } from './redirect-uris';

/**
 * "Connected apps" in the dashboard: the user's active grants whose client holds a token.
 * Revoking one revokes its codes
 * and tokens in one transaction (domain/oauth/oauth-grants.ts); the access-token check also
 * joins the grant, so the next /api/mcp request with any of them is a 401.
 */
export function createConnectedAppsProvider(
  repos: Repositories,
  now: () => number = Date.now,
): ConnectedAppsProvider {
  return {
    async list(userId) {
      const grants = await listConnectedGrants(repos, userId, new Date(now()));
      return grants.map((grant): ConnectedApp => ({
        id: grant.id,
        name: clientDisplayName({ id: grant.clientId, name: grant.clientName, source: grant.clientSource }),
        redirectHost: describeRedirect(grant.redirectUri).host,
        scopes: grant.scopes,
        connectedAt: grant.approvedAt,
        lastUsedAt: grant.lastUsedAt,
      }));
    },
    async revoke(userId, appId) {
      return revokeGrant(repos, userId, appId);
    },
  };
}
