import { createHash, randomBytes } from 'node:crypto';
import type { DomainDeps } from '../deps';
import { DomainError } from '../errors';

/**
 * LTI Dynamic Registration addresses. An owner makes one on the dashboard and pastes it into the
 * platform's "register a tool" page; the platform then opens it and the tool registers itself
 * into that owner's account. The address is a capability: its token is kept only as a hash,
 * it is shown once, works once and for an hour.
 */
export const REGISTRATION_LINK_LIFETIME_MS = 60 * 60 * 1000;
export const REGISTRATION_PATH = '/lti/register';

export const registrationTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new registration address for the owner, with when it stops working. */
export async function createRegistrationLink(
  deps: Pick<DomainDeps, 'repos' | 'baseUrl' | 'now'>,
  ownerId: string,
) {
  const now = deps.now?.() ?? Date.now();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now + REGISTRATION_LINK_LIFETIME_MS);
  if (
    !(await deps.repos.lti.addRegistrationLink({
      tokenHash: registrationTokenHash(token),
      ownerId,
      expiresAt,
    }))
  )
    throw new DomainError('user_not_found', 'The account is gone');
  return {
    registration_url: new URL(`${REGISTRATION_PATH}/${token}`, deps.baseUrl).toString(),
    expires_at: expiresAt.toISOString(),
  };
}
