import OAuth2Server from '@node-oauth/oauth2-server';
import type { Repositories } from '../db/repositories';
import {
  consumeAuthorizationCode,
  createAuthorizationCode,
  findAuthorizationCode,
  generateAuthorizationCode,
  isCodeReplayed,
  revokeReplayedCode,
  type AuthorizationCodeRow,
} from '../domain/oauth/authorization-codes';
import {
  clientAuthenticates,
  type OAuthClientRecord,
  type PresentedClientCredentials,
} from '../domain/oauth/oauth-clients';
import { approveGrant } from '../domain/oauth/oauth-grants';
import {
  findRefreshToken,
  generateAccessToken,
  generateRefreshToken,
  claimRefreshToken,
  isRefreshRetired,
  issueTokens,
  revokeGrantOnReuse,
  revokeTokenRow,
  type RefreshTokenRow,
} from '../domain/oauth/oauth-tokens';
import type { ClientResolver } from './resolve-client';
import { findRegisteredRedirect } from './redirect-uris';
import { grantableScopes } from './scopes';

/**
 * The model of @node-oauth/oauth2-server: the library runs the protocol steps (client and
 * redirect checks, PKCE verification after burning the code, refresh scope narrowing), the
 * model stores and finds things. One model per request, so what an early step found (the
 * code's row, the refresh token's row) is at hand when the token is saved.
 */
export type LibraryClient = OAuth2Server.Client & { record: OAuthClientRecord };
export type OAuthModel = OAuth2Server.AuthorizationCodeModel & OAuth2Server.RefreshTokenModel;

export interface OAuthModelDeps {
  repos: Repositories;
  clients: ClientResolver;
}

export interface TokenModelDeps extends OAuthModelDeps {
  /** The credentials the request presented, read once by client-authentication.ts. */
  presented: PresentedClientCredentials;
}

export function toLibraryClient(record: OAuthClientRecord): LibraryClient {
  return { id: record.id, redirectUris: record.redirectUris, grants: record.grantTypes, record };
}

const reused = () =>
  new OAuth2Server.InvalidGrantError(
    'Invalid grant: this refresh token was already exchanged; the connection must be approved again',
  );

const superseded = () =>
  new OAuth2Server.InvalidGrantError('Invalid grant: it was replayed or replaced while this request ran');

/** For /oauth/authorize: the client is already resolved and the request already validated. */
export function createAuthorizeModel(
  deps: OAuthModelDeps,
  request: { client: OAuthClientRecord; redirectUriSent: boolean; resource: string },
): OAuthModel {
  const { repos } = deps;
  return {
    ...tokenOnly(),
    async getClient(clientId) {
      return clientId === request.client.id ? toLibraryClient(request.client) : null;
    },
    async validateRedirectUri(redirectUri, client) {
      return findRegisteredRedirect((client as LibraryClient).record.redirectUris, redirectUri) !== undefined;
    },
    async validateScope(_user, client, scope) {
      return grantableScopes(scope, (client as LibraryClient).record.scope);
    },
    async generateAuthorizationCode() {
      return generateAuthorizationCode();
    },
    async saveAuthorizationCode(code, client, user) {
      const scopes = code.scope ?? [];
      // The approval is remembered per (user, client): Connected apps lists and revokes it.
      const grant = await approveGrant(repos, {
        userId: user.id,
        clientId: client.id,
        scopes,
        redirectUri: code.redirectUri,
      });
      await createAuthorizationCode(repos, code.authorizationCode, {
        grantId: grant.id,
        clientId: client.id,
        userId: user.id,
        // RFC 6749 4.1.3: the token request must repeat redirect_uri only if this request had one.
        redirectUri: request.redirectUriSent ? code.redirectUri : null,
        scopes,
        resource: request.resource,
        codeChallenge: code.codeChallenge!,
        codeChallengeMethod: code.codeChallengeMethod!,
        expiresAt: code.expiresAt,
      });
      return { ...code, client, user };
    },
  };
}

/** For /oauth/token: authorization_code and refresh_token grants. */
export function createTokenModel(deps: TokenModelDeps): OAuthModel {
  const { repos, clients, presented } = deps;
  let codeRow: AuthorizationCodeRow | undefined;
  let refreshRow: RefreshTokenRow | undefined;

  return {
    ...tokenOnly(),
    async getClient(clientId) {
      // The library reads the same credentials (Basic first, then the body); the check is ours,
      // so that it knows the method too (RFC 6749 3.2.1, RFC 7591 2).
      if (clientId !== presented.clientId) return null;
      const record = await clients.findKnownClient(clientId);
      return record && clientAuthenticates(record, presented) ? toLibraryClient(record) : null;
    },
    async saveAuthorizationCode() {
      throw new Error('codes are issued by the authorization endpoint only');
    },
    async getAuthorizationCode(code) {
      const row = await findAuthorizationCode(repos, code);
      if (!row) return null;
      if (row.consumedAt) {
        // RFC 6749 4.1.2: a used code came back; whoever holds it, what it issued must go.
        await revokeReplayedCode(repos, row.id);
        return null;
      }
      if (row.grantRevokedAt) return null;
      codeRow = row;
      return {
        authorizationCode: code,
        expiresAt: row.expiresAt,
        redirectUri: row.redirectUri ?? '',
        scope: row.scope.split(' ').filter(Boolean),
        client: { id: row.clientId, grants: [] },
        user: { id: row.userId },
        codeChallenge: row.codeChallenge,
        codeChallengeMethod: row.codeChallengeMethod,
      };
    },
    async revokeAuthorizationCode() {
      // The conditional update decides between simultaneous redemptions: exactly one wins.
      // A loser read the code before the winner marked it, so it is a duplicate, not yet a
      // replay: invalid_grant. A redemption that finds the code already used is a replay
      // (getAuthorizationCode above) and revokes what the code gave.
      return consumeAuthorizationCode(repos, codeRow!.id);
    },
    async validateScope(_user, _client, scope) {
      return scope ?? [];
    },
    async getRefreshToken(refreshToken) {
      const row = await findRefreshToken(repos, refreshToken);
      if (!row || row.revokedAt || row.grantRevokedAt) return null;
      if (row.refreshRetiredAt) {
        // RFC 9700 4.14.2: a replaced refresh token came back after its replacement was used.
        // Either the client or a thief holds the newer one; the server cannot tell which.
        await revokeGrantOnReuse(repos, row);
        return null;
      }
      refreshRow = row;
      return {
        refreshToken,
        refreshTokenExpiresAt: row.refreshExpiresAt ?? undefined,
        scope: row.scope.split(' ').filter(Boolean),
        client: { id: row.clientId, grants: [] },
        user: { id: row.userId },
      };
    },
    async revokeToken() {
      // Rotation, the one retry, or a reuse (which has revoked the grant): see oauth-tokens.ts.
      const claim = await claimRefreshToken(repos, refreshRow!);
      if (claim === 'reuse') throw reused();
      return true;
    },
    async saveToken(token, client, user) {
      const record = (client as LibraryClient).record;
      const origin = codeRow
        ? { grantId: codeRow.grantId, familyId: codeRow.id, parentId: null, resource: codeRow.resource }
        : {
            grantId: refreshRow!.grantId,
            familyId: refreshRow!.familyId,
            parentId: refreshRow!.id,
            resource: refreshRow!.resource,
          };
      const refreshToken = record.grantTypes.includes('refresh_token') ? (token.refreshToken ?? null) : null;
      const scopes = token.scope ?? [];
      const id = await issueTokens(
        repos,
        { accessToken: token.accessToken, refreshToken },
        {
          ...origin,
          clientId: record.id,
          userId: user.id,
          scopes,
          accessExpiresAt: token.accessTokenExpiresAt!,
          refreshExpiresAt: refreshToken ? (token.refreshTokenExpiresAt ?? null) : null,
        },
      );
      if (codeRow) {
        // A replay seen while this request ran revoked the family before this row existed:
        // revoke it too. The answer still goes out, so parallel redemptions issue exactly one
        // token (the one conditional update decided which), and it is dead like the rest.
        if (await isCodeReplayed(repos, codeRow.id)) await revokeTokenRow(repos, id);
      } else if (await isRefreshRetired(repos, refreshRow!.id)) {
        // The presented refresh token was retired (its replacement was used) while this ran.
        await revokeTokenRow(repos, id);
        throw superseded();
      }
      return {
        accessToken: token.accessToken,
        accessTokenExpiresAt: token.accessTokenExpiresAt,
        ...(refreshToken ? { refreshToken, refreshTokenExpiresAt: token.refreshTokenExpiresAt } : {}),
        scope: scopes,
        client,
        user,
      };
    },
  };
}

/** Parts common to both models; bearer tokens are checked by access-token-verifier.ts instead. */
function tokenOnly() {
  return {
    async generateAccessToken() {
      return generateAccessToken();
    },
    async generateRefreshToken() {
      return generateRefreshToken();
    },
    async getAccessToken() {
      return null;
    },
    async getAuthorizationCode() {
      return null;
    },
    async revokeAuthorizationCode() {
      return false;
    },
    async getRefreshToken() {
      return null;
    },
    async revokeToken() {
      return false;
    },
    async saveToken(): Promise<OAuth2Server.Token> {
      throw new Error('tokens are issued by the token endpoint only');
    },
  };
}
