// Drives the dashboard's forms as a browser would, through supertest agents that keep
// cookies: GET the page, take its CSRF token, POST the form.
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { TestApp } from '../helpers/test-app';

export type Agent = ReturnType<typeof request.agent>;

export function newAgent(app: TestApp): Agent {
  return request.agent(app.app);
}

/** The value of the first `_csrf` hidden field of a page. */
export function csrfFrom(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match?.[1]) throw new Error(`no CSRF field in page:\n${page.slice(0, 500)}`);
  return match[1];
}

export async function csrfOf(agent: Agent, path: string): Promise<string> {
  const res = await agent.get(path);
  expect(res.status).toBe(200);
  return csrfFrom(res.text);
}

export function uniqueEmail(label = 'person'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.com`;
}

export const PASSWORD = 'correct horse battery';

export async function signUp(agent: Agent, email = uniqueEmail(), password = PASSWORD) {
  const token = await csrfOf(agent, '/signup');
  const res = await agent.post('/signup').type('form').send({ _csrf: token, email, password });
  expect(res.status).toBe(303);
  return { email, password };
}

export async function logIn(
  agent: Agent,
  email: string,
  password: string,
  extra: Record<string, string> = {},
) {
  const token = await csrfOf(agent, '/login');
  return agent
    .post('/login')
    .type('form')
    .send({ _csrf: token, email, password, ...extra });
}

/** The text inside the error summary (what a screen reader announces). */
export function errorSummaryText(page: string): string {
  const match = /<div class="error-summary"[\s\S]*?<\/div>/.exec(page);
  return match
    ? match[0]
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : '';
}

/** A Set-Cookie header by cookie name. */
export function setCookie(res: { headers: Record<string, unknown> }, name: string): string | undefined {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
  return list.find((cookie) => cookie.startsWith(`${name}=`));
}

/**
 * The page with whitespace collapsed, no whitespace between tags, and `/>` as `>`: the
 * templates are formatted by prettier, so assertions must not depend on line breaks.
 */
export function squash(page: string): string {
  return page
    .replace(/\s+/g, ' ')
    .replace(/\s*\/>/g, '>')
    .replace(/>\s+</g, '><');
}
