import express, { type Router } from 'express';
import { listPlatforms, registerPlatform, removePlatform, toolEndpoints } from '../domain/lti/platforms';
import { createRegistrationLink } from '../domain/lti/registration-links';
import { parseForm, verifyCsrf } from '../web/csrf';
import { currentSession, requireLogin } from '../web/session';
import { setFlash, takeFlash } from '../web/session-flash';
import type { FieldError } from '../web/parts';
import type { DashboardContext } from './context';
import { domainRefusal } from './domain-error-pages';
import { formString } from './form-fields';
import {
  EMPTY_PLATFORM_FORM,
  LTI_PATH,
  PLATFORM_LABELS,
  sendLtiPage,
  sendRemovePlatformPage,
  type PlatformForm,
} from './lti-pages';

const FIELDS = Object.keys(EMPTY_PLATFORM_FORM) as Array<keyof PlatformForm>;

function platformForm(body: unknown): PlatformForm {
  return Object.fromEntries(FIELDS.map((name) => [name, formString(body, name)])) as unknown as PlatformForm;
}

/** The domain's issue on its field's element (deployment_ids.2 on the one textarea), in the page's words. */
function fieldError(issue: { field: string; message: string }): FieldError {
  const name = FIELDS.find((key) => issue.field === key || issue.field.startsWith(`${key}.`));
  if (!name) return { field: '', message: issue.message };
  const message = issue.message.startsWith(name)
    ? `${PLATFORM_LABELS[name]}${issue.message.slice(name.length)}`
    : issue.message.charAt(0).toUpperCase() + issue.message.slice(1);
  return { field: name, message };
}

/**
 * Settings > Learning platforms (LTI): the owner's platforms listed and removed (after a page
 * that asks), a Dynamic Registration address made and shown once (through the sealed flash; the
 * database keeps only its hash), and a platform registered by hand beside the tool's own URLs.
 * Every change is a CSRF-checked form post, no script needed.
 */
export function ltiRoutes({ deps }: DashboardContext): Router {
  const router = express.Router();
  const endpoints = toolEndpoints(deps.baseUrl);

  router.get(LTI_PATH, requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    sendLtiPage(res, {
      platforms: await listPlatforms(deps, session.userId),
      endpoints,
      flash: takeFlash(req, res),
    });
  });

  router.post(`${LTI_PATH}/platforms`, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    const form = platformForm(req.body);
    let platform;
    try {
      platform = await registerPlatform(deps, session.userId, {
        ...form,
        deployment_ids: form.deployment_ids
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter(Boolean),
      });
    } catch (thrown) {
      const refusal = domainRefusal(thrown, ['invalid_input']);
      if (!refusal) throw thrown;
      return sendLtiPage(res, {
        platforms: await listPlatforms(deps, session.userId),
        endpoints,
        form,
        errors: refusal.error.issues.map(fieldError),
        status: refusal.status,
      });
    }
    setFlash(res, {
      notice: { kind: 'success', text: `The platform “${platform.name}” is registered.` },
    });
    res.redirect(303, LTI_PATH);
  });

  router.post(
    `${LTI_PATH}/registration-url`,
    requireLogin(),
    parseForm(),
    verifyCsrf(),
    async (_req, res) => {
      const session = currentSession(res)!;
      const link = await createRegistrationLink(deps, session.userId);
      // The address rides in the sealed flash to the one page that shows it; nothing logs it.
      setFlash(res, { newLtiRegistration: { url: link.registration_url, expiresAt: link.expires_at } });
      res.redirect(303, LTI_PATH);
    },
  );

  router.post(`${LTI_PATH}/:id/remove`, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    const id = String(req.params.id);
    const notFound = () => {
      setFlash(res, {
        notice: { kind: 'error', text: 'That platform is not in your account: it may be removed already.' },
      });
      res.redirect(303, LTI_PATH);
    };
    const platform = (await listPlatforms(deps, session.userId)).find((one) => one.platform_id === id);
    if (!platform) return notFound();
    // The row's button asks first; the page it shows posts again with the confirmation.
    if (formString(req.body, 'confirm') !== 'yes') return sendRemovePlatformPage(res, platform);
    try {
      await removePlatform(deps, session.userId, id);
    } catch (thrown) {
      // Removed in another tab between the question and the answer.
      if (!domainRefusal(thrown, ['invalid_input'])) throw thrown;
      return notFound();
    }
    setFlash(res, {
      notice: {
        kind: 'success',
        text: `The platform “${platform.name}” is removed; its launches are refused from now on.`,
      },
    });
    res.redirect(303, LTI_PATH);
  });

  return router;
}
