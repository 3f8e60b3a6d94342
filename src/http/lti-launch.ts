import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { FetchImplementation } from 'jose';
import type { DomainDeps, SharedMarks } from '../domain/deps';
import {
  LAUNCH_STATE_COOKIE,
  LAUNCH_STATE_LIFETIME_MS,
  newLaunchState,
  readLaunchState,
} from '../domain/lti/launch-state';
import { platformOfLaunch, platformOfLogin } from '../domain/lti/launch-platforms';
import { platformRequest } from '../domain/lti/platform-request';
import { authenticationRedirect, readLoginRequest } from '../lti/login';
import { verifyLaunch, type LtiLaunch } from '../lti/launch';
import { LtiError } from '../lti/errors';
import { platformKeys } from '../lti/platform-keys';
import { html } from '../web/html';
import { sendPage } from '../web/page-shell';
import { allowFramingBy, pageSecurity } from '../web/security';

export const LTI_LOGIN_PATH = '/lti/login';
export const LTI_LAUNCH_PATH = '/lti/launch';

export interface LaunchSettings {
  /** Signs the login's state (launch-state.ts). */
  stateKey: Buffer;
  /** Nonces claimed once across instances. */
  marks: SharedMarks;
  /** Platforms on this machine over plain http (LTI_ALLOW_LOOPBACK). */
  allowLoopback: boolean;
}

/** jose's fetch for a platform's JWKS, under the outbound-address rule (platform-request.ts). */
function outboundFetch(allowLoopback: boolean): FetchImplementation {
  return async (url) => {
    const answer = await platformRequest(url, { allowLoopback, timeoutMs: 5_000 });
    return new Response(answer.body, {
      status: answer.status,
      headers: { 'content-type': answer.contentType },
    });
  };
}

/** The login's parameters, from the query of a GET or the form of a POST. */
const loginParams = (req: Request): Record<string, unknown> =>
  req.method === 'POST' ? (req.body ?? {}) : req.query;

function stateCookie(res: Response, value: string, maxAgeMs: number): void {
  // Sent back on the platform's cross-site form post, also inside its frame (partitioned).
  res.append(
    'Set-Cookie',
    `${LAUNCH_STATE_COOKIE}=${value}; Path=${LTI_LAUNCH_PATH}; Max-Age=${Math.floor(maxAgeMs / 1000)}; HttpOnly; Secure; SameSite=None; Partitioned`,
  );
}

function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function refuse(res: Response, message: string, extra: ReturnType<typeof html> | string = ''): void {
  sendPage(res, {
    title: 'Launch refused',
    status: 400,
    body: html`<h1>This launch could not be opened</h1>
      <p>${message}</p>
      ${extra}`,
  });
}

/**
 * The LTI 1.3 launch: the platform's OIDC login (`/lti/login`, a GET or a form POST) is answered
 * with the platform's authorization address, carrying a signed state and a fresh nonce, and the
 * same state in a cookie; the platform then posts the id token to `/lti/launch`, taken only with
 * its state, in the browser that holds it, and verified by the LTI core (lti/launch.ts).
 */
export function ltiLaunchRouter({
  deps,
  limiter,
  settings,
}: {
  deps: DomainDeps;
  limiter: RequestHandler;
  settings: LaunchSettings;
}): Router {
  const router = express.Router();
  const pages = pageSecurity({ https: deps.baseUrl.startsWith('https:') });
  const form = express.urlencoded({ extended: false, limit: '64kb' });
  const fetch = outboundFetch(settings.allowLoopback);
  const now = () => deps.now?.() ?? Date.now();

  const login: RequestHandler = async (req, res) => {
    let request;
    try {
      request = readLoginRequest(loginParams(req));
    } catch (error) {
      if (error instanceof LtiError) return refuse(res, error.message);
      throw error;
    }
    const row = await platformOfLogin(deps, request.issuer, request.clientId);
    if (!row)
      return refuse(
        res,
        `The platform ${request.issuer}${request.clientId ? ` (client id ${request.clientId})` : ''} is not registered with the quiz service: its administrator registers it on the dashboard (Settings, LTI).`,
      );
    const kept: Record<string, string> = {};
    for (const [name, value] of Object.entries(loginParams(req)))
      if (typeof value === 'string') kept[name] = value;
    const { state, nonce } = newLaunchState(settings.stateKey, row.id, kept, now());
    let target: string;
    try {
      target = authenticationRedirect(row, request, {
        redirectUri: new URL(LTI_LAUNCH_PATH, deps.baseUrl).toString(),
        state,
        nonce,
      });
    } catch (error) {
      if (error instanceof LtiError) return refuse(res, error.message);
      throw error;
    }
    stateCookie(res, state, LAUNCH_STATE_LIFETIME_MS);
    res.set('Cache-Control', 'no-store').redirect(302, target);
  };
  router.get(LTI_LOGIN_PATH, limiter, pages, login);
  router.post(LTI_LOGIN_PATH, limiter, pages, form, login);

  router.post(LTI_LAUNCH_PATH, limiter, pages, form, async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body.error === 'string')
      return refuse(
        res,
        `The platform did not sign you in (${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''}). Open the activity again from the course.`,
      );
    const read = readLaunchState(settings.stateKey, body.state, now());
    if (!read.ok)
      return refuse(
        res,
        read.problem === 'expired'
          ? 'The sign-in took more than 10 minutes: open the activity again from the course.'
          : 'This launch did not come from a sign-in the quiz service started: open the activity from the course.',
      );
    const { state } = read;
    const cookie = cookieValue(req, LAUNCH_STATE_COOKIE);
    if (cookie === undefined) {
      // The browser kept no cookie inside the platform's frame: a window of its own keeps it.
      const retry = new URL(LTI_LOGIN_PATH, deps.baseUrl);
      for (const [name, value] of Object.entries(state.login)) retry.searchParams.set(name, value);
      allowFramingBy(res, state.login.iss);
      return refuse(
        res,
        'Your browser does not keep the sign-in inside the course page.',
        html`<p>
          <a href="${retry.toString()}" target="_blank" rel="noopener">Open the activity in a new window</a>
        </p>`,
      );
    }
    if (cookie !== body.state)
      return refuse(
        res,
        'This launch belongs to another sign-in in this browser: open the activity again from the course.',
      );
    stateCookie(res, '', 0);
    const row = await platformOfLaunch(deps, state.platformId);
    if (!row)
      return refuse(
        res,
        'The platform that started this launch is no longer registered with the quiz service.',
      );
    allowFramingBy(res, row.issuer);
    let launch: LtiLaunch;
    try {
      launch = await verifyLaunch(String(body.id_token ?? ''), {
        platform: row,
        keys: platformKeys(row.jwksUrl, { fetch }),
        nonces: { claim: (key, ttlMs) => settings.marks.claim(`lti-nonce:${key}`, ttlMs) },
        expectedNonce: state.nonce,
        now: () => new Date(now()),
      });
    } catch (error) {
      if (error instanceof LtiError)
        return refuse(res, error.message, html`<p class="muted">(${error.code})</p>`);
      throw error;
    }
    const role = launch.roles.administrator
      ? 'an administrator'
      : launch.roles.instructor
        ? 'a teacher'
        : launch.roles.learner
          ? 'a student'
          : 'a member';
    sendPage(res, {
      title: 'Launched',
      body: html`<h1>Signed in from ${row.name}</h1>
        <p>
          ${launch.user.name ?? launch.user.id}, as
          ${role}${launch.context?.title ? html` in ${launch.context.title}` : ''}.
        </p>
        <p>
          The quiz service has checked this launch. Opening a quiz from a course, and sending its grades to
          the gradebook, come in a next release.
        </p>`,
    });
  });
  return router;
}
