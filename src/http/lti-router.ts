import express, { type RequestHandler, type Router } from 'express';
import type { DomainDeps } from '../domain/deps';
import { signingKey, toolJwks } from '../domain/lti/tool-keys';

/** Where platforms read the tool's public keys: given to them at registration. */
export const LTI_JWKS_PATH = '/lti/jwks';

/**
 * The LTI 1.3 routes platforms call. The JWKS is public, as every JWKS is; it makes the first
 * signing key when there is none, so a platform that reads it at registration finds the key the
 * tool will sign with.
 */
export function ltiRouter({ deps, limiter }: { deps: DomainDeps; limiter: RequestHandler }): Router {
  const router = express.Router();
  router.get(LTI_JWKS_PATH, limiter, async (_req, res) => {
    const { lti } = deps;
    if (lti) await signingKey({ ...deps, lti });
    // Short: a rotation reaches platforms within minutes, and the retired key stays an hour.
    res.set('Cache-Control', 'public, max-age=300').json(await toolJwks(deps));
  });
  return router;
}
