/**
 * Who is calling, as every surface sees it once a credential has been checked: the user the
 * credential acts for, and what it may do. API keys carry every scope; an OAuth token carries
 * the scopes the person approved on the consent page.
 */
export type Scope = 'quizzes:read' | 'quizzes:write';
export const ALL_SCOPES: readonly Scope[] = ['quizzes:read', 'quizzes:write'];

export interface Principal {
  userId: string;
  credential: { kind: 'api_key'; id: string } | { kind: 'oauth'; id: string; clientId: string };
  scopes: ReadonlySet<Scope>;
}
