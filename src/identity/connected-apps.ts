/**
 * "Connected apps": the OAuth clients a user has approved, as the owner sees and revokes them.
 * The dashboard lists and revokes through this interface; the authorization server provides
 * it (oauth/connected-apps-provider.ts), and the composition root plugs one into the other.
 */
export interface ConnectedApp {
  /** Stable id used in the revoke URL (e.g. the grant's or the client's id). */
  id: string;
  /** The client's registered name (untrusted text: pages escape it). */
  name: string;
  /** Host of the redirect URI, so people can tell look-alike names apart. */
  redirectHost: string | null;
  scopes: string[];
  connectedAt: Date;
  lastUsedAt: Date | null;
}

export interface ConnectedAppsProvider {
  list(userId: string): Promise<ConnectedApp[]>;
  /**
   * Revokes the app's access and refresh tokens at once. Returns false when there is no
   * such app for this user (already revoked, or someone else's).
   */
  revoke(userId: string, appId: string): Promise<boolean>;
}

/** For an app built without the authorization server: nobody can have connected an app. */
export const noConnectedApps: ConnectedAppsProvider = {
  async list() {
    return [];
  },
  async revoke() {
    return false;
  },
};

/** Plain words for each scope, the same on the consent page and the connected-apps page. */
export const SCOPE_WORDS: Record<string, string> = {
  'quizzes:read': 'See your quizzes and their results',
  'quizzes:write': 'Create, change, publish and delete your quizzes',
};
