import { nowOf, type DomainDeps } from '../deps';
import { DomainError } from '../errors';
import { isUnanswered } from '../stored-answer';
import type { ImageRef } from '../images/image-ref';
import {
  answerKeyShown,
  reviewOf,
  reviewOptionPictures,
  reviewPictures,
  type GradeShown,
  type ReviewItem,
} from './answer-review';
import { gradesOf } from '../grading/grade-answers';

export interface ResponseResult {
  /**
   * allowEmbedding: whether other sites may frame this page (the quiz's allow_embedding);
   * mathDollars: how its texts are typeset (domain/rich-text.ts).
   */
  quiz: { slug: string; title: string; allowEmbedding: boolean; language: string; mathDollars: boolean };
  submitted_at: string;
  /** Null when the quiz does not show scores to respondents (its setting now, not at submission). */
  score: { score: number; max_score: number; percent: number | null; passed: boolean | null } | null;
  /** Each answer marked, with the key and explanations: null until the quiz's setting shows them. */
  review: ReviewItem[] | null;
  /**
   * Without a review (the key not shown), the answers a person graded, once the response is
   * final: each with its levels and the teacher's comment, and nothing of the key. Empty otherwise.
   */
  graded?: ReviewItem[];
  /** The reviewed questions' own pictures by question id (empty without a review). */
  pictures?: Record<string, ImageRef>;
  /** Their options' pictures by question id and option label (empty without a review). */
  option_pictures?: Record<string, Record<string, ImageRef>>;
  /** "pending" while an answer waits for a person's grade: the score so far, no key yet. */
  grading_status: 'pending' | 'final';
  /**
   * Sent when the attempt's time ran out: the texts of the questions it left blank, and when the
   * server sent it from the answers saved as the student went, when they were last saved; else null.
   */
  time_up: { out_of_time: string[]; saved_at: string | null } | null;
}

/** When the answers the server submitted at time-up were last saved; null when the page sent them. */
export async function autoSubmittedAt(deps: DomainDeps, responseId: string): Promise<Date | null> {
  const attempt = await deps.repos.attempts.byResponseId(responseId);
  return attempt?.autoSubmitted ? attempt.savedAt : null;
}

/**
 * While the response waits for a person's grade, an answer graded by hand shows that it waits:
 * no points so far, no key or explanation and no grade (a proposal is the owner's to approve).
 */
function withheldUntilGraded(item: ReviewItem): ReviewItem {
  if (item.grade_state === undefined) return item;
  const { grade: _grade, ...rest } = item;
  return { ...rest, points: null, correct_answers: [], explanation: null };
}

function finalGrades(grades: ReadonlyMap<string, GradeShown>): Map<string, GradeShown> {
  return new Map([...grades].filter(([, grade]) => grade.state === 'final'));
}

/**
 * What the public result page of one response may show. Anyone holding the link can open it,
 * so it reveals no respondent details and the score only while the quiz's settings allow it;
 * a response id under another quiz's slug, or under an unpublished quiz, is not found.
 */
export async function getResponseResult(
  deps: DomainDeps,
  slug: string,
  responseId: string,
): Promise<ResponseResult> {
  const response = await deps.repos.responses.publicResult(slug, responseId);
  if (!response)
    throw new DomainError('quiz_not_found', `No response "${responseId}" for a published quiz at "${slug}".`);
  const showScore = response.quiz.showScoreToRespondent;
  // The key of the quiz's current questions, which the review matches by question id: shown as
  // the setting allows, while a grade is pending too (for the answers marked by their type's rule).
  const pending = response.gradingStatus === 'pending';
  const current = answerKeyShown(response.quiz, nowOf(deps)) ? await deps.repos.quizzes.bySlug(slug) : null;
  // A person's grades, final ones alone (a proposal is the owner's to approve), once the response is.
  const handGraded = pending ? [] : response.answers.filter((answer) => answer.gradeState !== null);
  const grades =
    handGraded.length === 0
      ? new Map<string, GradeShown>()
      : finalGrades(
          await gradesOf(
            deps,
            handGraded.map((answer) => answer.id),
          ),
        );
  // Without the key, the graded answers still show their levels and comments, from the quiz's
  // current rubrics (read only when there is such a grade to show).
  const rubrics = !current && grades.size > 0 ? await deps.repos.quizzes.bySlug(slug) : null;
  const savedAt = response.timeUp ? await autoSubmittedAt(deps, responseId) : null;
  return {
    quiz: {
      slug: response.quiz.slug,
      title: response.quiz.title,
      allowEmbedding: response.quiz.allowEmbedding,
      language: response.quiz.language,
      mathDollars: response.quiz.mathDollars,
    },
    submitted_at: response.submittedAt.toISOString(),
    // The response's own stored figures: a later edit of the quiz does not change them.
    score: response.quiz.showScoreToRespondent
      ? {
          score: response.score,
          max_score: response.maxScore,
          percent: response.percent,
          passed: response.passed,
        }
      : null,
    review: current
      ? reviewOf(current.questions, response.answers, showScore, grades).map((item) =>
          pending ? withheldUntilGraded(item) : item,
        )
      : null,
    graded: rubrics
      ? reviewOf(
          rubrics.questions,
          handGraded.filter((answer) => grades.has(answer.id)),
          showScore,
          grades,
        ).map((item) => ({ ...item, correct_answers: [], explanation: null }))
      : [],
    pictures: current ? reviewPictures(current.questions) : {},
    option_pictures: current ? reviewOptionPictures(current.questions) : {},
    grading_status: pending ? 'pending' : 'final',
    time_up: response.timeUp
      ? {
          out_of_time: response.answers.filter(isUnanswered).map((answer) => answer.questionText),
          saved_at: savedAt?.toISOString() ?? null,
        }
      : null,
  };
}
