import type { QuizWithQuestions } from '../../db/repositories';
import { nowOf, type DomainDeps } from '../deps';
import { buildExport, EXPORT_FORMATS, exportNotesText } from '../export/export-quiz';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { quizNotFound } from '../owned/resolve-quiz';
import { publicUrl } from '../quiz-records';
import {
  checkQuizLink,
  LINK_PARAM,
  newLinkSecret,
  signQuizLink,
  type LinkCheck,
  type LinkCredential,
  type LinkPurpose,
} from './signed-links';

type LinkDeps = Pick<DomainDeps, 'repos' | 'baseUrl' | 'links' | 'now'>;

const attribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** What another site pastes to show the quiz; the frame is allowed only while allow_embedding is on. */
export function embedSnippet(target: { publicUrl: string; title: string }): string {
  return `<iframe src="${attribute(target.publicUrl)}" title="${attribute(target.title)}" width="100%" height="720" style="border:0" loading="lazy"></iframe>`;
}

/** Where each signed link is served: the pages that serve them check the `sig` they carry. */
export function signedLinkPath(quiz: Pick<QuizWithQuestions, 'id' | 'slug'>, purpose: LinkPurpose): string {
  switch (purpose) {
    case 'preview':
      return `/q/${quiz.slug}/preview`;
    case 'csv':
      return `/dashboard/quizzes/${quiz.id}/responses.csv`;
    case 'qr':
      return `/dashboard/quizzes/${quiz.id}/qr.png`;
    case 'upload':
      return `/dashboard/quizzes/${quiz.id}/upload`;
    case 'moodle_xml':
      return `/dashboard/quizzes/${quiz.id}/export/moodle.xml`;
    case 'gift':
      return `/dashboard/quizzes/${quiz.id}/export/gift.txt`;
    case 'qti':
      return `/dashboard/quizzes/${quiz.id}/export/qti.zip`;
  }
}

export interface QuizLink {
  url: string;
  expires_at: string;
}

async function quizLink(
  deps: LinkDeps,
  quiz: Pick<QuizWithQuestions, 'id' | 'slug'>,
  purpose: LinkPurpose,
  credential: LinkCredential,
): Promise<QuizLink> {
  const signed = await signQuizLink(deps, quiz.id, purpose, credential);
  return {
    url: `${deps.baseUrl}${signedLinkPath(quiz, purpose)}?${LINK_PARAM}=${signed.sig}`,
    expires_at: signed.expiresAt.toISOString(),
  };
}

/** One signed link of the owner's quiz, found by its reference. */
async function ownQuizLink(
  deps: LinkDeps,
  ownerId: string,
  credential: LinkCredential,
  ref: string,
  purpose: LinkPurpose,
): Promise<QuizLink> {
  return quizLink(deps, await loadOwnedQuiz(deps, ownerId, ref), purpose, credential);
}

/**
 * The preview link of the owner's quiz: its public page as respondents will see it, marked as a
 * preview, storing nothing; for drafts and published quizzes alike. The dashboard's Preview
 * button and get_quiz_links both make it here.
 */
export const previewLink = (deps: LinkDeps, ownerId: string, credential: LinkCredential, ref: string) =>
  ownQuizLink(deps, ownerId, credential, ref, 'preview');

/** The signed CSV link of the owner's quiz, as get_quiz_links gives it; get_results gives it when asked. */
export const csvLink = (deps: LinkDeps, ownerId: string, credential: LinkCredential, ref: string) =>
  ownQuizLink(deps, ownerId, credential, ref, 'csv');

/**
 * Everything get_quiz_links answers: the public link, its QR code, a preview, the CSV, the embed
 * snippet, and an upload link when the credential may write (`canWrite`: it takes a file for
 * the owner, which import_questions then reads by its upload_id).
 */
export async function getQuizLinks(
  deps: LinkDeps,
  ownerId: string,
  credential: LinkCredential,
  ref: string,
  canWrite = false,
) {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  const url = publicUrl(deps.baseUrl, quiz);
  const [preview, csv, qr, upload, moodleXml, gift, qti] = await Promise.all([
    quizLink(deps, quiz, 'preview', credential),
    quizLink(deps, quiz, 'csv', credential),
    url ? quizLink(deps, quiz, 'qr', credential) : Promise.resolve(null),
    canWrite ? quizLink(deps, quiz, 'upload', credential) : Promise.resolve(null),
    quizLink(deps, quiz, 'moodle_xml', credential),
    quizLink(deps, quiz, 'gift', credential),
    quizLink(deps, quiz, 'qti', credential),
  ]);
  // What each export cannot hold, per question, said once in the note.
  const exported = await Promise.all(EXPORT_FORMATS.map((format) => buildExport(quiz, format, deps.baseUrl)));
  const losses = exported
    .map((file, index) => ({ format: EXPORT_FORMATS[index]!, notes: file.notes }))
    .filter(({ notes }) => notes.length > 0)
    .map(({ format, notes }) => ` ${exportNotesText(format, notes)}`)
    .join('');
  return {
    quiz_id: quiz.id,
    title: quiz.title,
    status: quiz.status as 'draft' | 'published',
    public_url: url,
    qr_code: qr,
    preview,
    csv,
    embed_html: url ? embedSnippet({ publicUrl: url, title: quiz.title }) : null,
    embedding_allowed: quiz.allowEmbedding,
    upload,
    exports: { moodle_xml: moodleXml.url, gift: gift.url, qti: qti.url },
    note:
      (url ? '' : 'A draft has no public link, QR code or embed snippet until it is published. ') +
      'Signed links expire and stop working when the credential that made them is revoked.' +
      (upload
        ? ' The upload link takes one POST of a file (multipart field "file", or the raw bytes with their Content-Type) and answers {upload_id} for import_questions.'
        : '') +
      losses,
  };
}

/** Replaces the quiz's link secret: every signed link made before stops working. */
export async function rotateLinkSecret(deps: LinkDeps, ownerId: string, ref: string) {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  if (!(await deps.repos.quizzes.setLinkSecret(ownerId, quiz.id, newLinkSecret()))) throw quizNotFound(ref);
  return { quiz_id: quiz.id, rotated_at: new Date(nowOf(deps)).toISOString() };
}

/** Why a link was refused: see refusedLinkText. */
export type RefusedLink = { ok: false; reason: Extract<LinkCheck, { ok: false }>['reason'] | 'not_found' };

export type OpenedLink = { ok: true; quiz: QuizWithQuestions } | RefusedLink;

/** The quiz a preview link opens, by its public slug; drafts included, since a preview is for them. */
export async function openPreview(deps: LinkDeps, slug: string, sig: unknown): Promise<OpenedLink> {
  const quiz = await deps.repos.quizzes.bySlug(slug);
  if (!quiz) return { ok: false, reason: 'not_found' };
  const check = await checkQuizLink(deps, quiz.id, 'preview', sig);
  return check.ok ? { ok: true, quiz } : check;
}

/**
 * The owner a CSV, QR, export or upload link acts for, by the quiz id in its address; the page then reads the
 * quiz as that owner, as the dashboard does.
 */
export async function openOwnerLink(
  deps: LinkDeps,
  quizId: string,
  purpose: Exclude<LinkPurpose, 'preview'>,
  sig: unknown,
): Promise<{ ok: true; ownerId: string } | RefusedLink> {
  const quiz = await deps.repos.quizzes.byId(quizId);
  if (!quiz) return { ok: false, reason: 'not_found' };
  const check = await checkQuizLink(deps, quiz.id, purpose, sig);
  return check.ok ? { ok: true, ownerId: quiz.ownerId } : check;
}

/** What a refused link says, in one place for every page that serves one. */
export function refusedLinkText(reason: RefusedLink['reason']): string {
  switch (reason) {
    case 'expired':
      return 'This link has expired. Ask for a new one (get_quiz_links, or the quiz page on the dashboard).';
    case 'revoked':
      return 'This link no longer works: the key or session that made it was revoked. Ask for a new one.';
    default:
      return 'This link is not valid: it may have been mistyped, or its quiz’s links were renewed. Ask for a new one.';
  }
}
