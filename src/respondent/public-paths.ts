import { SLUG_MAX_LENGTH } from '../domain/slug';

/**
 * The public identifiers in respondent URLs. Slugs are `[a-z0-9-]`, 1-80 characters, and
 * response ids are cuids: anything else cannot name a page, so it is answered with "not found"
 * without a database query.
 */
const SLUG = new RegExp(`^[a-z0-9-]{1,${SLUG_MAX_LENGTH}}$`);
const RESPONSE_ID = /^[a-z0-9]{1,40}$/;

export const isPublicSlug = (value: unknown): value is string =>
  typeof value === 'string' && SLUG.test(value);
export const isResponseId = (value: unknown): value is string =>
  typeof value === 'string' && RESPONSE_ID.test(value);

/** Where the public quiz pages live: a quiz at `/q/<slug>`, a result at `/q/<slug>/r/<id>`. */
export const QUIZ_PAGE_PREFIX = '/q/';

/** The result page of one response (relative; prefix the base URL for an absolute link). */
export const resultPath = (slug: string, responseId: string) => `${QUIZ_PAGE_PREFIX}${slug}/r/${responseId}`;

/** The kept link of one response (domain/taking/kept-result.ts's secret in the query; relative, as resultPath). */
export const keptResultPath = (slug: string, secret: string) =>
  `${QUIZ_PAGE_PREFIX}${slug}/result?key=${encodeURIComponent(secret)}`;
