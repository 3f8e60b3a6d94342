import type { Response } from 'express';
import { RESOURCE_METADATA_PATH } from '../http/authenticate';

/**
 * A valid token without the scope a tool needs: 403 with the RFC 6750 section 3.1 challenge
 * `insufficient_scope`, naming the scope the call needs and where discovery starts (RFC 9728
 * section 5.1), so an MCP client can ask the person for more (MCP 2025-11-25, "Scope
 * Challenge Handling"). The JSON body mirrors the 401's.
 */
export function sendInsufficientScope(res: Response, baseUrl: string, needed: string): void {
  const description = `This token does not allow that: the tool needs the scope ${needed}. Connect the app again and allow it.`;
  res
    .status(403)
    .set(
      'WWW-Authenticate',
      `Bearer error="insufficient_scope", scope="${needed}", resource_metadata="${baseUrl}${RESOURCE_METADATA_PATH}", ` +
        `error_description="${description}"`,
    )
    .set('Cache-Control', 'no-store')
    .json({ error: 'insufficient_scope', error_description: description });
}
