import { createHash } from 'node:crypto';
import type { GradableAnswerRow, QuizWithQuestions } from '../../db/repositories';
import { nowOf, type DomainDeps } from '../deps';
import { DomainError } from '../errors';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { passedOf, percentOf } from '../scoring';
import { answerText } from '../stored-answer';
import { responseGradedEvent } from '../webhooks/events';
import { gradesOf, graderName, type GradeOutcome } from './grade-answers';

/**
 * The teacher approves proposals in an MCP client's form (mcp/approvals/): what the form shows is
 * read here, its digest binds the approval to exactly those grades, and the approval applies only
 * while each proposal is still the one shown (checked again under the response's lock).
 */

/** One proposal as the teacher is shown it. */
export interface ShownGrade {
  answerId: string;
  responseId: string;
  questionId: string;
  /** 1 is first; 0 for a question the quiz no longer has. */
  position: number;
  points: number;
  maxPoints: number;
  levels: number[] | null;
  feedback: string | null;
  /** The start of the student's text, for the teacher to know which answer it is. */
  excerpt: string;
}

const EXCERPT_CHARS = 120;

/** SHA-256 of exactly what is shown: the quiz, and each answer's points, levels and feedback. */
export function shownDigest(quizId: string, shown: readonly ShownGrade[]): string {
  const canonical = JSON.stringify([
    quizId,
    shown.map((grade) => [grade.answerId, grade.points, grade.levels, grade.feedback]),
  ]);
  return createHash('sha256').update(canonical).digest('base64url');
}

/**
 * The proposals waiting on these answers of the owner's, in the order given: answers of another
 * owner, gone or no longer proposed are left out. The quiz is the answers' one quiz.
 */
export async function shownProposals(
  deps: DomainDeps,
  ownerId: string,
  answerIds: readonly string[],
): Promise<{ quiz: QuizWithQuestions; shown: ShownGrade[] } | null> {
  const rows = await deps.repos.responses.ownedAnswers(ownerId, answerIds);
  if (rows.length === 0) return null;
  const quizIds = new Set(rows.map((row) => row.quizId));
  if (quizIds.size > 1) return null;
  const quiz = await loadOwnedQuiz(deps, ownerId, rows[0]!.quizId);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const grades = await gradesOf(deps, answerIds);
  const shown: ShownGrade[] = [];
  for (const id of answerIds) {
    const row = byId.get(id);
    const grade = grades.get(id);
    if (!row || !grade || row.gradeState !== 'proposed' || grade.state !== 'proposed') continue;
    shown.push(shownGrade(quiz, row, grade));
  }
  return { quiz, shown };
}

function shownGrade(
  quiz: QuizWithQuestions,
  row: GradableAnswerRow,
  grade: { points: number; levels: number[] | null; feedback: string | null },
): ShownGrade {
  const index = quiz.questions.findIndex((q) => q.id === row.questionId);
  const text = (answerText(row) ?? '').replace(/\s+/g, ' ').trim();
  const chars = [...text];
  return {
    answerId: row.id,
    responseId: row.responseId,
    questionId: row.questionId,
    position: index + 1,
    points: grade.points,
    maxPoints: row.maxPoints,
    levels: grade.levels,
    feedback: grade.feedback,
    excerpt: chars.length > EXCERPT_CHARS ? `${chars.slice(0, EXCERPT_CHARS).join('')}…` : text,
  };
}

/** The approval no longer matches what was shown: refused whole, nothing written. */
export function approvalOutdated(): DomainError {
  return new DomainError(
    'invalid_state',
    'The grades changed since the teacher was shown them (or were approved or deleted meanwhile), so nothing was approved. ' +
      'Call grade_answers again with ask_person: true to show the teacher the grades as they are now.',
  );
}

/**
 * Makes final the shown proposals the teacher approved (`approve`, a subset of the shown
 * answers), recording the client's name and `client_form`. Refused whole when what is stored now
 * is not what was shown (`digest`); a proposal changed between that check and the write is left.
 */
export async function approveInClient(
  deps: DomainDeps,
  ownerId: string,
  input: {
    quizId: string;
    answerIds: readonly string[];
    digest: string;
    approve: ReadonlySet<string>;
    client: string;
  },
) {
  const found = await shownProposals(deps, ownerId, input.answerIds);
  if (!found || found.shown.length !== input.answerIds.length) throw approvalOutdated();
  const { quiz, shown } = found;
  if (quiz.id !== input.quizId || shownDigest(quiz.id, shown) !== input.digest) throw approvalOutdated();
  const by = graderName({ kind: 'teacher' });
  const grouped = new Map<string, ShownGrade[]>();
  for (const grade of shown.filter((g) => input.approve.has(g.answerId))) {
    const list = grouped.get(grade.responseId) ?? [];
    list.push(grade);
    grouped.set(grade.responseId, list);
  }
  const at = new Date(nowOf(deps));
  const done =
    grouped.size === 0
      ? []
      : await deps.repos.responses.applyGrades(
          quiz.id,
          [...grouped].map(([responseId, list]) => ({
            responseId,
            changes: list.map((grade) => ({
              kind: 'approve' as const,
              answerId: grade.answerId,
              by,
              inClient: input.client,
              expect: { points: grade.points, levels: grade.levels, feedback: grade.feedback },
            })),
          })),
          at,
          (score, maxScore, final) => {
            const percent = percentOf(score, maxScore);
            return { percent, passed: final ? passedOf(percent, quiz.passMarkPercent) : null };
          },
          responseGradedEvent(quiz, at),
        );
  const applied = new Set(
    done.flatMap((response) => response.answers.filter((a) => a.applied).map((a) => a.answerId)),
  );
  const grades: GradeOutcome[] = shown.map((grade) => {
    const approved = applied.has(grade.answerId);
    const asked = input.approve.has(grade.answerId);
    return {
      answer_id: grade.answerId,
      response_id: grade.responseId,
      question_id: grade.questionId,
      stored: approved ? 'final' : 'proposed',
      points: grade.points,
      max_points: grade.maxPoints,
      levels: grade.levels,
      feedback: grade.feedback,
      note: approved
        ? `Approved by the teacher in ${input.client}: final.`
        : asked
          ? 'Its proposal changed meanwhile: left as a proposal.'
          : 'Not approved by the teacher: still a proposal, for the web.',
    };
  });
  return {
    quiz,
    grades,
    finalized_responses: done.filter((r) => r.becameFinal).map((r) => r.responseId),
    approved: applied.size,
  };
}

/** How an answer's grade was approved in a client, for the web; null when not so. */
export async function clientApprovalOf(
  deps: Pick<DomainDeps, 'repos'>,
  answerId: string,
): Promise<{ via: 'client_form'; client: string; at: Date } | null> {
  const [row] = await deps.repos.responses.answerGrades([answerId]);
  if (!row || row.approvedVia !== 'client_form' || !row.approvedAt) return null;
  return { via: 'client_form', client: row.approvedClient ?? '', at: row.approvedAt };
}
