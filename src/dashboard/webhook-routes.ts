import express, { type Router } from 'express';
import {
  createEndpoint,
  deleteEndpoint,
  deliveryLog,
  enableEndpoint,
  getEndpoint,
  listEndpoints,
  replayDelivery,
  rotateSecret,
  sendTestEvent,
} from '../domain/webhooks/endpoints';
import { parseForm, verifyCsrf } from '../web/csrf';
import { currentSession, requireLogin } from '../web/session';
import { setFlash, takeFlash } from '../web/session-flash';
import { TEST_EVENTS_PER_MINUTE, type DashboardContext } from './context';
import { domainRefusal } from './domain-error-pages';
import { formString } from './form-fields';
import { sendEndpointPage, sendWebhooksPage, WEBHOOKS_PATH, type WebhooksPageState } from './webhook-pages';

/** Quizzes offered in the scope choice: the owner's most recently changed ones. */
const QUIZ_CHOICES = 100;

/** A form field that may come once or several times (checkboxes). */
function formList(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((item): item is string => typeof item === 'string');
}

/** The new endpoint's form as posted, to create it from or to show again with its errors. */
function endpointForm(body: unknown): NonNullable<WebhooksPageState['form']> {
  return {
    url: formString(body, 'url'),
    events: formList(body, 'events'),
    scope: formString(body, 'scope') === 'chosen' ? 'chosen' : 'all',
    quizIds: formList(body, 'quizIds'),
  };
}

/**
 * Settings > Webhooks: endpoints listed and added (the secret shown once, through the flash),
 * and per endpoint its delivery log with replay, a test event answered at once, rotation,
 * enabling a disabled one, deletion. Every change is a CSRF-checked form post, no script needed.
 */
export function webhookRoutes({ deps, webhooks, config, limiters }: DashboardContext): Router {
  const router = express.Router();
  const { repos } = deps;
  const quizChoices = (ownerId: string) => repos.quizzes.titlesByOwner(ownerId, QUIZ_CHOICES);
  const endpointPath = (id: string) => `${WEBHOOKS_PATH}/${id}`;

  router.get(WEBHOOKS_PATH, requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    sendWebhooksPage(res, {
      endpoints: await listEndpoints(repos, session.userId),
      quizzes: await quizChoices(session.userId),
      flash: takeFlash(req, res),
      allowLoopback: config.webhooks.allowLoopback,
    });
  });

  router.post(WEBHOOKS_PATH, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    const form = endpointForm(req.body);
    let created;
    try {
      created = await createEndpoint(repos, webhooks.settings, session.userId, {
        url: form.url,
        events: form.events,
        quizIds: form.scope === 'chosen' ? form.quizIds : null,
      });
    } catch (thrown) {
      const refusal = domainRefusal(thrown, ['invalid_input', 'webhook_limit_reached']);
      if (!refusal) throw thrown;
      const { error, status } = refusal;
      const errors =
        error.code === 'webhook_limit_reached'
          ? [{ field: '', message: error.message }]
          : error.issues.map((issue) => ({ field: issue.field, message: issue.message }));
      return sendWebhooksPage(res, {
        endpoints: await listEndpoints(repos, session.userId),
        quizzes: await quizChoices(session.userId),
        form,
        errors,
        status,
        allowLoopback: config.webhooks.allowLoopback,
      });
    }
    const { endpoint, secret } = created;
    setFlash(res, {
      notice: { kind: 'success', text: `The endpoint ${endpoint.url} is added.` },
      newWebhookSecret: { url: endpoint.url, secret },
    });
    res.redirect(303, endpointPath(endpoint.id));
  });

  router.get(`${WEBHOOKS_PATH}/:id`, requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    const id = String(req.params.id);
    const endpoint = await getEndpoint(repos, session.userId, id);
    sendEndpointPage(res, {
      endpoint,
      quizzes: await quizChoices(session.userId),
      attempts: await deliveryLog(repos, session.userId, id),
      flash: takeFlash(req, res),
    });
  });

  router.post(`${WEBHOOKS_PATH}/:id/delete`, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    const endpoint = await getEndpoint(repos, session.userId, String(req.params.id));
    await deleteEndpoint(repos, session.userId, endpoint.id);
    setFlash(res, {
      notice: {
        kind: 'success',
        text: `The endpoint ${endpoint.url} is deleted; nothing more is sent to it.`,
      },
    });
    res.redirect(303, WEBHOOKS_PATH);
  });

  router.post(`${WEBHOOKS_PATH}/:id/rotate`, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    const endpoint = await getEndpoint(repos, session.userId, String(req.params.id));
    const secret = await rotateSecret(repos, webhooks.settings, session.userId, endpoint.id);
    setFlash(res, {
      notice: {
        kind: 'success',
        text: 'A new secret signs from now on. For the next 24 hours the previous one signs too, so your receiver can switch over.',
      },
      newWebhookSecret: { url: endpoint.url, secret },
    });
    res.redirect(303, endpointPath(endpoint.id));
  });

  router.post(`${WEBHOOKS_PATH}/:id/enable`, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    const id = String(req.params.id);
    await enableEndpoint(repos, session.userId, id);
    setFlash(res, {
      notice: { kind: 'success', text: 'The endpoint is enabled again; new events are sent to it.' },
    });
    res.redirect(303, endpointPath(id));
  });

  router.post(`${WEBHOOKS_PATH}/:id/test`, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    const id = String(req.params.id);
    // Counted per endpoint, before anything is sent; an endpoint that is not the caller's counts nothing.
    await getEndpoint(repos, session.userId, id);
    const wait = await limiters.webhookTest.consume(`endpoint:${id}`);
    if (wait > 0) {
      setFlash(res, {
        notice: {
          kind: 'error',
          text: `At most ${TEST_EVENTS_PER_MINUTE} test events a minute per endpoint: wait ${wait} seconds and send it again.`,
        },
      });
      res.redirect(303, endpointPath(id));
      return;
    }
    let result;
    try {
      result = await sendTestEvent(repos, webhooks.worker, session.userId, id);
    } catch (error) {
      const refusal = domainRefusal(error, ['invalid_state']);
      if (!refusal) throw error;
      setFlash(res, { notice: { kind: 'error', text: refusal.error.message } });
      return res.redirect(303, endpointPath(id));
    }
    const summary =
      result.outcome === 'success'
        ? `delivered, ${result.status} in ${result.latencyMs} ms`
        : `not delivered (${result.outcome.replace('_', ' ')}${result.status === null ? '' : `, ${result.status}`})`;
    setFlash(res, { webhookTest: { ok: result.outcome === 'success', summary, snippet: result.snippet } });
    res.redirect(303, endpointPath(id));
  });

  router.post(
    `${WEBHOOKS_PATH}/:id/deliveries/:deliveryId/replay`,
    requireLogin(),
    parseForm(),
    verifyCsrf(),
    async (req, res) => {
      const session = currentSession(res)!;
      const id = String(req.params.id);
      await replayDelivery(repos, session.userId, String(req.params.deliveryId));
      setFlash(res, { notice: { kind: 'success', text: 'The event is queued to be sent again now.' } });
      res.redirect(303, endpointPath(id));
    },
  );

  return router;
}
