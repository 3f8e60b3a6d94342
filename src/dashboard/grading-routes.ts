import express, { type Request, type Response, type Router } from 'express';
import type { DomainDeps } from '../domain/deps';
import { storedDefinition } from '../domain/question-types';
import { loadOwnedQuiz } from '../domain/owned/load-owned-quiz';
import { requireOwnedQuizId } from '../domain/owned/require-owned-quiz';
import {
  answersToGrade,
  approveGrades,
  gradeAnswers,
  setAssistantGradesFinal,
} from '../domain/grading/grade-answers';
import { getOwnedResponse } from '../domain/reporting/owned-responses';
import { parseForm, verifyCsrf } from '../web/csrf';
import { sendNotFound } from '../web/error-pages';
import { plural } from '../web/page-shell';
import type { FieldError } from '../web/parts';
import { currentSession, requireLogin } from '../web/session';
import { setFlash, takeFlash } from '../web/session-flash';
import type { DashboardContext } from './context';
import { domainRefusal } from './domain-error-pages';
import {
  type AnswersToGradePage,
  gradingPath,
  initialState,
  sendAnswerPage,
  sendQueueIndex,
  sendWalkDone,
  walkPath,
  type AnswerFormState,
  type QueueRow,
  type Walk,
} from './grading-pages';
import { respondentName } from './results-pages';

/** The most answers one walk reads at once (a page of the domain's read, unbounded in bytes). */
const WALK_LIMIT = 100;

type Body = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' ? value : '');

function walkOf(value: unknown): Walk | null {
  const match = /^(question|response):([A-Za-z0-9_-]{1,64})$/.exec(text(value));
  return match ? { kind: match[1] as Walk['kind'], id: match[2]! } : null;
}

/** The grading queue's index: each question graded by hand, with its answers pending and proposed. */
async function sendQueue(deps: DomainDeps, req: Request, res: Response) {
  const userId = currentSession(res)!.userId;
  const id = await requireOwnedQuizId(deps.repos, userId, String(req.params.quizId));
  const quiz = await loadOwnedQuiz(deps, userId, id);
  const waiting = await walkAnswers(deps, userId, id, {});
  const rows: QueueRow[] = quiz.questions.flatMap((question, index) =>
    storedDefinition(question.type).gradedByHand
      ? [
          {
            question: { question_id: question.id, position: index + 1, text: question.text },
            pending: waiting.answers.filter(
              (answer) => answer.question_id === question.id && answer.grade_state === 'pending',
            ).length,
            proposed: waiting.answers.filter(
              (answer) => answer.question_id === question.id && answer.grade_state === 'proposed',
            ).length,
          },
        ]
      : [],
  );
  sendQueueIndex(res, {
    quiz: { quiz_id: quiz.id, title: quiz.title },
    rows,
    rich: { dollars: quiz.mathDollars },
    flash: takeFlash(req, res),
  });
}

/** Shows the walk's answer `?answer=` (or its first), with the form in `state` or the proposal's. */
async function showWalk(
  deps: DomainDeps,
  req: Request,
  res: Response,
  walk: Walk,
  options: { answerId?: string; state?: AnswerFormState; status?: number } = {},
) {
  const userId = currentSession(res)!.userId;
  const id = await requireOwnedQuizId(deps.repos, userId, String(req.params.quizId));
  const quiz = await loadOwnedQuiz(deps, userId, id);
  let title: string;
  if (walk.kind === 'question') {
    const question = quiz.questions.find((candidate) => candidate.id === walk.id);
    if (!question || !storedDefinition(question.type).gradedByHand) return sendNotFound(res, 'question');
    title = `${quiz.questions.indexOf(question) + 1}. ${question.text}`;
  } else {
    // Another owner's response, or none: not found (getOwnedResponse throws).
    const owned = await getOwnedResponse(deps, userId, id, walk.id);
    title = respondentName(owned.response.respondent);
  }
  const page = await walkAnswers(deps, userId, id, walk);
  const flash = takeFlash(req, res);
  const wanted = options.answerId ?? (typeof req.query.answer === 'string' ? req.query.answer : undefined);
  const index = Math.max(0, wanted ? page.answers.findIndex((answer) => answer.answer_id === wanted) : 0);
  const answer = page.answers[index];
  const summary = { quiz_id: quiz.id, title: quiz.title };
  if (!answer) return sendWalkDone(res, { quiz: summary, walk, title, flash });
  const question = page.questions.find((candidate) => candidate.question_id === answer.question_id)!;
  const proposedInQuestion = page.answers.filter(
    (candidate) => candidate.question_id === question.question_id && candidate.grade_state === 'proposed',
  ).length;
  sendAnswerPage(res, {
    quiz: summary,
    walk,
    title,
    answer,
    question,
    place: index + 1,
    waiting: page.answers.length,
    nextId: page.answers[index + 1]?.answer_id ?? null,
    proposedInQuestion: walk.kind === 'question' ? proposedInQuestion : 0,
    state: options.state ?? initialState(answer),
    rich: { dollars: quiz.mathDollars },
    timeZone: currentSession(res)!.timeZone,
    flash,
    ...(options.status ? { status: options.status } : {}),
  });
}

/** Where a saved or approved answer leads: the walk's next waiting answer, or back to this one. */
function afterSave(req: Request, res: Response, walk: Walk, message: string, stay: boolean) {
  const quizId = String(req.params.quizId);
  setFlash(res, { notice: { kind: 'success', text: message } });
  const back = stay
    ? `/dashboard/quizzes/${quizId}/responses/${walk.kind === 'response' ? walk.id : ''}`
    : walkPath(quizId, walk);
  res.redirect(303, stay && walk.kind === 'question' ? gradingPath(quizId) : back);
}

/**
 * The grading queue: its index, a walk of the answers waiting (one question across respondents,
 * or one respondent across questions), a teacher's grade (final), an approval of a proposal, and
 * "approve all proposed grades" of a question. Every POST is CSRF-checked; another owner's quiz,
 * question, response or answer is "not found".
 */
export function gradingRoutes({ deps }: DashboardContext): Router {
  const router = express.Router();
  const userOf = (res: Response) => currentSession(res)!.userId;

  router.get('/dashboard/quizzes/:quizId/grading', requireLogin(), (req, res) => sendQueue(deps, req, res));

  router.get('/dashboard/quizzes/:quizId/grading/questions/:questionId', requireLogin(), async (req, res) => {
    await showWalk(deps, req, res, { kind: 'question', id: String(req.params.questionId) });
  });
  router.get('/dashboard/quizzes/:quizId/grading/responses/:responseId', requireLogin(), async (req, res) => {
    await showWalk(deps, req, res, { kind: 'response', id: String(req.params.responseId) });
  });

  /**
   * A form post on one of the owner's quizzes: logged in, the form read, CSRF checked and the quiz
   * owned (another owner's is a 404) before the handler runs.
   */
  const ownerForm = (
    handler: (req: Request, res: Response, userId: string, quizId: string) => Promise<unknown>,
  ) => [
    requireLogin(),
    parseForm(),
    verifyCsrf(),
    async (req: Request, res: Response) => {
      const userId = userOf(res);
      const id = await requireOwnedQuizId(deps.repos, userId, String(req.params.quizId));
      await handler(req, res, userId, id);
    },
  ];

  router.post(
    '/dashboard/quizzes/:quizId/grading/answers/:answerId',
    ownerForm(async (req, res, userId, id) => {
      const body = req.body as Body;
      const walk = walkOf(body.walk);
      const answerId = String(req.params.answerId);
      if (!walk) return sendNotFound(res, 'grading walk');
      const page = await walkAnswers(deps, userId, id, walk);
      const answer = page.answers.find((candidate) => candidate.answer_id === answerId);
      // Graded meanwhile, or not in this walk (another owner's answer among them): the walk goes on.
      if (!answer) {
        setFlash(res, { notice: { kind: 'info', text: 'That answer is no longer waiting for a grade.' } });
        return res.redirect(303, walkPath(id, walk));
      }
      const question = page.questions.find((candidate) => candidate.question_id === answer.question_id)!;
      const state: AnswerFormState = {
        levels: question.rubric.map((_criterion, index) => text(body[`level_${index}`]) || undefined),
        points: text(body.points).trim(),
        feedback: text(body.feedback),
        errors: [],
      };
      const errors: FieldError[] = [];
      const levels: number[] = [];
      question.rubric.forEach((criterion, index) => {
        const chosen = state.levels[index];
        const level = chosen === undefined ? -1 : Number(chosen);
        if (!Number.isInteger(level) || level < 0 || level >= criterion.levels.length)
          errors.push({ field: `level-${index}`, message: `Choose a level for “${criterion.criterion}”` });
        else levels.push(level);
      });
      let points: number | undefined;
      if (question.rubric.length === 0) {
        points = /^\d{1,4}$/.test(state.points) ? Number(state.points) : NaN;
        if (!(points >= 0 && points <= question.max_points))
          errors.push({ field: 'points', message: `Enter whole points from 0 to ${question.max_points}` });
      }
      if (state.feedback.length > 2000)
        errors.push({ field: 'feedback', message: 'The comment takes at most 2,000 characters' });
      const refuse = (found: FieldError[]) =>
        showWalk(deps, req, res, walk, { answerId, state: { ...state, errors: found }, status: 422 });
      if (errors.length > 0) return refuse(errors);
      try {
        await gradeAnswers(deps, userId, {
          grades: [
            {
              answerId,
              ...(question.rubric.length > 0 ? { levels } : { points: points! }),
              ...(state.feedback.trim() ? { feedback: state.feedback } : {}),
            },
          ],
          final: true,
          by: { kind: 'teacher' },
        });
      } catch (error) {
        const refusal = domainRefusal(error, ['invalid_input']);
        if (!refusal) throw error;
        return refuse([{ field: '', message: refusal.error.issues[0]?.message ?? refusal.error.message }]);
      }
      afterSave(req, res, walk, 'Grade saved.', body.then === 'stay');
    }),
  );

  router.post(
    '/dashboard/quizzes/:quizId/grading/answers/:answerId/approve',
    ownerForm(async (req, res, userId, id) => {
      const walk = walkOf((req.body as Body).walk);
      if (!walk) return sendNotFound(res, 'grading walk');
      const done = await approveGrades(deps, userId, { ref: id, answerIds: [String(req.params.answerId)] });
      afterSave(
        req,
        res,
        walk,
        done.approved.length > 0 ? 'Proposed grade approved.' : 'That answer had no proposal waiting.',
        false,
      );
    }),
  );

  router.post(
    '/dashboard/quizzes/:quizId/grading/questions/:questionId/approve-all',
    ownerForm(async (req, res, userId, id) => {
      const quiz = await loadOwnedQuiz(deps, userId, id);
      const questionId = String(req.params.questionId);
      if (!quiz.questions.some((question) => question.id === questionId))
        return sendNotFound(res, 'question');
      const done = await approveGrades(deps, userId, { ref: id, questionId });
      setFlash(res, {
        notice: {
          kind: 'success',
          text: `${plural(done.approved.length, 'proposed grade', 'proposed grades')} approved.`,
        },
      });
      res.redirect(303, gradingPath(id));
    }),
  );

  // The owner's switch "final grades from the assistant", shown on the quiz page's settings.
  router.post(
    '/dashboard/quizzes/:quizId/assistant-grades',
    ownerForm(async (req, res, userId, id) => {
      const final = (req.body as Body).final;
      if (final !== 'true' && final !== 'false') {
        setFlash(res, {
          notice: { kind: 'error', text: 'Choose to allow final grades from the assistant or not.' },
        });
        return res.redirect(303, `/dashboard/quizzes/${id}`);
      }
      const done = await setAssistantGradesFinal(deps, userId, id, final === 'true');
      setFlash(res, {
        notice: {
          kind: 'success',
          text: done.assistant_grades_final
            ? 'Grades the assistant sends as final now count at once.'
            : 'The assistant’s grades now wait for your approval.',
        },
      });
      res.redirect(303, `/dashboard/quizzes/${id}`);
    }),
  );

  return router;
}

/** The answers waiting in a walk (or the whole quiz), in the domain's order, without cutting. */
async function walkAnswers(
  deps: DomainDeps,
  userId: string,
  quizId: string,
  walk: Partial<Walk>,
): Promise<Pick<AnswersToGradePage, 'questions' | 'answers'>> {
  const questions = new Map<string, AnswersToGradePage['questions'][number]>();
  const answers: AnswersToGradePage['answers'] = [];
  let cursor: string | undefined;
  // Bounded: a queue of a few thousand answers is read in pages of WALK_LIMIT.
  for (let pages = 0; pages < 50; pages += 1) {
    const page = await answersToGrade(deps, userId, {
      ref: quizId,
      ...(walk.kind === 'question' ? { questionId: walk.id } : {}),
      ...(walk.kind === 'response' ? { responseId: walk.id } : {}),
      maxBytes: null,
      limit: WALK_LIMIT,
      ...(cursor ? { cursor } : {}),
    });
    for (const question of page.questions) questions.set(question.question_id, question);
    answers.push(...page.answers);
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return { questions: [...questions.values()], answers };
}
