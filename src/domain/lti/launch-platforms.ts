import type { LtiPlatformRow } from '../../db/repositories/lti';
import type { LtiPlatform } from '../../lti/platform';
import type { DomainDeps } from '../deps';

/** A registered platform as the LTI core reads it, with the name its owner gave it. */
export type RegisteredPlatform = LtiPlatform & { name: string };

const registered = (row: LtiPlatformRow): RegisteredPlatform => ({
  id: row.id,
  name: row.name,
  issuer: row.issuer,
  clientId: row.clientId,
  deploymentIds: row.deploymentIds,
  authLoginUrl: row.authLoginUrl,
  authTokenUrl: row.authTokenUrl,
  jwksUrl: row.jwksUrl,
});

/**
 * The platform a login names: by its issuer and client id; without a client id (LTI allows a
 * platform to leave it out), the issuer's only registration, and none when it has several.
 */
export async function platformOfLogin(
  deps: Pick<DomainDeps, 'repos'>,
  issuer: string,
  clientId: string | undefined,
): Promise<RegisteredPlatform | null> {
  const { lti } = deps.repos;
  if (clientId !== undefined) {
    const row = await lti.platformByClient(issuer, clientId);
    return row ? registered(row) : null;
  }
  const rows = await lti.platformsByIssuer(issuer);
  return rows.length === 1 ? registered(rows[0]!) : null;
}

export async function platformOfLaunch(
  deps: Pick<DomainDeps, 'repos'>,
  platformId: string,
): Promise<RegisteredPlatform | null> {
  const row = await deps.repos.lti.platformById(platformId);
  return row ? registered(row) : null;
}
