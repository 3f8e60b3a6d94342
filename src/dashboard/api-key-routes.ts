import express, { type Router } from 'express';
import { createApiKey, listApiKeys, revokeApiKey } from '../domain/api-keys';
import { parseForm, verifyCsrf } from '../web/csrf';
import { currentSession, requireLogin } from '../web/session';
import { setFlash, takeFlash } from '../web/session-flash';
import { sendApiKeysPage } from './api-key-pages';
import type { DashboardContext } from './context';
import { domainRefusal } from './domain-error-pages';
import { formString } from './form-fields';

const PATH = '/settings/security/api-keys';

/**
 * Settings > Security > API keys: create -> 303 -> the value shown
 * once (flash), list, revoke. The domain enforces the 10-key limit inside a transaction.
 */
export function apiKeyRoutes({ deps, config }: DashboardContext): Router {
  const router = express.Router();
  const { repos } = deps;
  const mcpUrl = `${config.baseUrl}/api/mcp`;

  router.get('/settings', requireLogin(), (_req, res) => res.redirect(303, PATH));
  router.get('/settings/security', requireLogin(), (_req, res) => res.redirect(303, PATH));

  router.get(PATH, requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    const flash = takeFlash(req, res);
    sendApiKeysPage(res, { keys: await listApiKeys(repos, session.userId), mcpUrl, flash });
  });

  router.post(PATH, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    const name = formString(req.body, 'name');
    let created;
    try {
      created = await createApiKey(repos, session.userId, name);
    } catch (thrown) {
      const refusal = domainRefusal(thrown, ['invalid_input', 'key_limit_reached']);
      if (!refusal) throw thrown;
      const { error, status } = refusal;
      const errors =
        error.code === 'key_limit_reached'
          ? [{ field: '', message: error.message }]
          : error.issues.map((issue) => ({ field: 'name', message: issue.message }));
      const keys = await listApiKeys(repos, session.userId);
      return sendApiKeysPage(res, { keys, mcpUrl, name, errors, status });
    }
    setFlash(res, { newApiKey: { id: created.id, name: created.name, key: created.key } });
    res.redirect(303, PATH);
  });

  router.post(`${PATH}/:keyId/revoke`, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    const keys = await listApiKeys(repos, session.userId);
    const key = keys.find((candidate) => candidate.id === req.params.keyId);
    try {
      await revokeApiKey(repos, session.userId, String(req.params.keyId));
    } catch (error) {
      if (!domainRefusal(error, ['key_not_found'])) throw error;
      setFlash(res, {
        notice: { kind: 'error', text: 'That key was already revoked, or it is not one of yours.' },
      });
      return res.redirect(303, PATH);
    }
    setFlash(res, {
      notice: {
        kind: 'success',
        text: `The key “${key?.name ?? ''}” is revoked. Requests with it are refused from now on.`,
      },
    });
    res.redirect(303, PATH);
  });

  return router;
}
