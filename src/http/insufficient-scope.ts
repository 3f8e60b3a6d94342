import type { Response } from 'express';
import { RESOURCE_METADATA_PATH } from './authenticate';
import { ALL_SCOPES } from '../identity/principal';

/**
 * A valid token without the scope a tool needs: 403 with the RFC 6750 section 3.1 challenge
 * `insufficient_scope` and where discovery starts (RFC 9728 section 5.1), so an MCP client can
 * ask the person for more (MCP 2025-11-25, "Scope Challenge Handling"). `scope` lists what the
 * token already has together with what the call needs: a client that re-authorizes with
 * exactly that list keeps its earlier permissions instead of trading them for the new one.
 * The JSON body mirrors the 401's.
 */
export function sendInsufficientScope(
  res: Response,
  baseUrl: string,
  needed: string,
  held: Iterable<string>,
): void {
  const wanted = new Set([...held, needed]);
  const scope = [...ALL_SCOPES.filter((known) => wanted.delete(known)), ...wanted].join(' ');
  const description = `This token does not allow that: the tool needs the scope ${needed}. Connect the app again and allow it.`;
  res
    .status(403)
    .set(
      'WWW-Authenticate',
      `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${baseUrl}${RESOURCE_METADATA_PATH}", ` +
        `error_description="${description}"`,
    )
    .set('Cache-Control', 'no-store')
    .json({ error: 'insufficient_scope', error_description: description });
}
