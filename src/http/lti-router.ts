import express, { type RequestHandler, type Router } from 'express';
import type { DomainDeps } from '../domain/deps';
import {
  registerDynamically,
  RegistrationRefused,
  type RegistrationSettings,
} from '../domain/lti/dynamic-registration';
import { REGISTRATION_PATH } from '../domain/lti/registration-links';
import { toolJwks } from '../domain/lti/tool-keys';
import { html } from '../web/html';
import { sendPage } from '../web/page-shell';
import { allowFramingBy, pageSecurity } from '../web/security';

/** Where platforms read the tool's public keys: given to them at registration. */
export const LTI_JWKS_PATH = '/lti/jwks';

/**
 * The LTI 1.3 routes platforms call. The JWKS is public, as every JWKS is; it makes the first
 * signing key when there is none, so a platform that reads it at registration finds the key the
 * tool will sign with.
 */
export function ltiRouter({
  deps,
  limiter,
  registration,
}: {
  deps: DomainDeps;
  limiter: RequestHandler;
  registration: RegistrationSettings;
}): Router {
  const router = express.Router();
  router.get(LTI_JWKS_PATH, limiter, async (_req, res) => {
    // Short: a rotation reaches platforms within minutes, and the retired key stays an hour.
    res.set('Cache-Control', 'public, max-age=300').json(await toolJwks(deps));
  });

  // Dynamic Registration: the platform opens the owner's address in a frame or window of its own,
  // with ?openid_configuration=...&registration_token=... (domain/lti/dynamic-registration.ts).
  const pages = pageSecurity({ https: deps.baseUrl.startsWith('https:') });
  router.get(`${REGISTRATION_PATH}/:token`, limiter, pages, async (req, res) => {
    const configuration = req.query.openid_configuration;
    allowFramingBy(res, typeof configuration === 'string' ? configuration : undefined);
    try {
      const platform = await registerDynamically(deps, registration, {
        token: String(req.params.token),
        openidConfiguration: configuration,
        registrationToken: req.query.registration_token,
      });
      sendPage(res, {
        title: 'Registered',
        body: html`<h1>The quiz service is registered</h1>
          <p>
            ${platform.name} can now launch this account's quizzes (client id
            <code>${platform.client_id}</code>, deployment
            <code>${platform.deployment_ids.join(', ')}</code>). Teachers add a quiz to a course with the
            platform's "add an activity" and the Quiz service tool.
          </p>
          <p>This page closes by itself; if it does not, close it.</p>`,
        scripts: ['lti-registered.js'],
      });
    } catch (error) {
      if (!(error instanceof RegistrationRefused)) throw error;
      sendPage(res, {
        title: 'Not registered',
        status: 400,
        body: html`<h1>The quiz service was not registered</h1>
          <p>${error.message}</p>`,
      });
    }
  });
  return router;
}
