import { ALL_SCOPES, type Scope } from '../identity/principal';

/** The scopes, in their canonical order. */
export const SUPPORTED_SCOPES: readonly Scope[] = ALL_SCOPES;

/** A `scope` parameter (RFC 6749 section 3.3: space-delimited) as a list; undefined when absent. */
export function splitScope(value: string | undefined | null): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  return value.split(' ').filter(Boolean);
}

/** Known scopes only, each once, in canonical order. */
export function canonicalScopes(values: Iterable<string>): Scope[] {
  const wanted = new Set(values);
  return SUPPORTED_SCOPES.filter((scope) => wanted.has(scope));
}

/**
 * What a request may be granted. RFC 6749 section 3.3 lets the server ignore scopes it does
 * not know (clients add `offline_access` and the like), so unknown ones are dropped; an
 * absent scope means what the client registered, else every scope. Null when nothing
 * grantable is left: that is `invalid_scope`.
 */
export function grantableScopes(
  requested: string[] | undefined,
  clientScopes: string[] | null,
): Scope[] | null {
  const allowed = clientScopes ? canonicalScopes(clientScopes) : [...SUPPORTED_SCOPES];
  const wanted = requested === undefined || requested.length === 0 ? allowed : canonicalScopes(requested);
  const granted = wanted.filter((scope) => allowed.includes(scope));
  return granted.length > 0 ? granted : null;
}
