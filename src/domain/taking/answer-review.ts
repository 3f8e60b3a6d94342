import type { NewAnswerRow, QuestionRow, QuizRow } from '../../db/repositories';
import { mediaOf, type ImageRef } from '../images/image-ref';
import { storedDefinition, toScorable } from '../question-types';
import { showCorrectAnswersOf } from '../quiz-records';
import { answerText, drawnOf } from '../stored-answer';
import { GRACE_SECONDS } from '../attempts/taking-rules';

/**
 * The review a respondent may see: every question with their answer, what it earned, the right
 * answer and its explanation. Whether the key may be shown is the quiz's setting:
 * - "never" (the default): no review, and nothing of the key anywhere a respondent looks;
 * - "after_submit": with the submission's answer and on its result page;
 * - "after_close": on the result page once the quiz is closed, so that a class cannot pass the
 *   key on while others still answer (afterCloseKeyAt).
 */
export function answerKeyShown(
  quiz: Pick<QuizRow, 'showCorrectAnswers' | 'acceptingResponses' | 'closesAt' | 'timeLimitMinutes'>,
  now: number,
): boolean {
  const setting = showCorrectAnswersOf(quiz);
  if (setting === 'after_submit') return true;
  if (setting !== 'after_close') return false;
  if (!quiz.acceptingResponses) return true;
  const at = afterCloseKeyAt(quiz);
  return at !== null && now >= at.getTime();
}

/**
 * When "after_close" shows the key by the quiz's closes_at: once the last attempt that may still
 * be sent is in, i.e. closes_at plus the time limit (an attempt started just before may run that
 * long) plus the grace a timed attempt has to arrive. Null without a closes_at: then only
 * close_quiz (or the quiz page's Close button) shows it.
 */
export function afterCloseKeyAt(quiz: Pick<QuizRow, 'closesAt' | 'timeLimitMinutes'>): Date | null {
  if (!quiz.closesAt) return null;
  return new Date(quiz.closesAt.getTime() + (quiz.timeLimitMinutes ?? 0) * 60_000 + GRACE_SECONDS * 1000);
}

export interface ReviewItem {
  question_id: string;
  text: string;
  type: string;
  /**
   * "yes" / "no", the chosen option's label, the ticked labels joined ("" when none was
   * ticked), the text typed or the number as written; null when left unanswered.
   */
  your_answer: string | null;
  /** Null when the quiz does not show scores to respondents. */
  points: number | null;
  max_points: number | null;
  /**
   * The answers that earn the most, as the question's type names them (its `rightAnswers`), such
   * as the best option's label or the number with its tolerance ("3.5 ± 0.1"). Empty for a
   * question that only collects text. Null when the
   * question was changed or removed since (its key is not the one this answer met).
   */
  correct_answers: string[] | null;
  explanation: string | null;
  /** Only for an answer graded by a person: where its grade stands. */
  grade_state?: 'pending' | 'proposed' | 'final';
  /** Only with a grade to show (a final one to the respondent): its levels and comment. */
  grade?: ReviewGrade;
}

/** A person's grade as the review shows it. */
export interface ReviewGrade {
  /** "final", or "proposed" (the owner's pages only: a respondent sees final grades alone). */
  state: 'proposed' | 'final';
  /**
   * The level chosen per rubric criterion, in the rubric's order, with its points and the
   * criterion's most (null when the quiz does not show scores to respondents); empty without a
   * rubric, or when the rubric no longer matches the levels.
   */
  levels: Array<{ criterion: string; label: string; points: number | null; max: number | null }>;
  /** The teacher's comment to the respondent (an override's too); null without one. */
  feedback: string | null;
}

/** What the review reads of a stored grade (GradeRecord of grade-answers.ts). */
export interface GradeShown {
  state: 'proposed' | 'final';
  levels: readonly number[] | null;
  feedback: string | null;
}

type Rubric = ReadonlyArray<{ criterion: string; levels: ReadonlyArray<{ label: string; points: number }> }>;

/** A question's rubric when its type has one (an essay's), else none. */
function rubricOf(question: QuestionRow | undefined): Rubric {
  if (!question) return [];
  const scorable = toScorable(question);
  return 'rubric' in scorable ? scorable.rubric : [];
}

/**
 * The grade's levels named from the rubric. A rubric edited since (an essay keeps its id, so its
 * grades stay) may no longer fit the indexes: then no level is named, and the points say it all.
 */
function gradeOf(grade: GradeShown, rubric: Rubric, showScore: boolean): ReviewGrade {
  const chosen = grade.levels ?? [];
  const fits =
    chosen.length === rubric.length &&
    chosen.every((index, n) => Number.isInteger(index) && index >= 0 && index < rubric[n]!.levels.length);
  return {
    state: grade.state,
    levels: fits
      ? rubric.map((criterion, n) => {
          const level = criterion.levels[chosen[n]!]!;
          return {
            criterion: criterion.criterion,
            label: level.label,
            points: showScore ? level.points : null,
            max: showScore ? Math.max(0, ...criterion.levels.map((each) => each.points)) : null,
          };
        })
      : [],
    feedback: grade.feedback,
  };
}

/**
 * The text and right answers a review shows for one answer: those of the values it was marked
 * against when its type draws its own (each respondent saw their own numbers), else the key's.
 */
function keyShown(
  question: QuestionRow | undefined,
  answer: { type: string; value: unknown; questionText: string },
): { text: string; correct: string[] | null } {
  if (!question) return { text: answer.questionText, correct: null };
  const definition = storedDefinition(question.type);
  const drawn = question.type === answer.type ? drawnOf(answer) : null;
  if (definition.drawing && drawn) {
    const scorable = toScorable(question);
    return {
      text: definition.drawing.text(scorable, answer.questionText, drawn),
      correct: definition.drawing.rightAnswers(scorable, drawn),
    };
  }
  return { text: answer.questionText, correct: definition.rightAnswers(toScorable(question)) };
}

/**
 * One item per stored answer, in its order. The key comes from the quiz's current question of
 * the same id: a question keeps its id only while it marks answers as before, so that key is the
 * one the answer was marked by; a question re-keyed or removed since has none to show.
 */
export function reviewOf(
  questions: readonly QuestionRow[],
  answers: ReadonlyArray<
    Pick<NewAnswerRow, 'questionId' | 'questionText' | 'type' | 'points' | 'maxPoints'> & {
      value: unknown;
      id?: string;
      gradeState?: string | null | undefined;
    }
  >,
  showScore: boolean,
  /** The grades to show by answer id: what the caller may see of them (final ones alone for a respondent). */
  grades: ReadonlyMap<string, GradeShown> = new Map(),
): ReviewItem[] {
  const current = new Map(questions.map((question) => [question.id, question]));
  return answers.map((answer) => {
    const question = current.get(answer.questionId);
    const grade = answer.id === undefined ? undefined : grades.get(answer.id);
    const gradeState = answer.gradeState;
    const { text, correct } = keyShown(question, answer);
    return {
      question_id: answer.questionId,
      text,
      type: answer.type,
      your_answer: answerText(answer),
      points: showScore ? answer.points : null,
      max_points: showScore ? answer.maxPoints : null,
      correct_answers: correct,
      explanation: question?.explanation ?? null,
      ...(gradeState === 'pending' || gradeState === 'proposed' || gradeState === 'final'
        ? { grade_state: gradeState }
        : {}),
      ...(grade ? { grade: gradeOf(grade, rubricOf(question), showScore) } : {}),
    };
  });
}

/**
 * The current questions' own pictures by question id, for the pages that show a review. Kept
 * out of the review items, which answers and tools carry as they always have.
 */
export function reviewPictures(questions: readonly QuestionRow[]): Record<string, ImageRef> {
  const pictures: Record<string, ImageRef> = {};
  for (const question of questions) {
    const image = mediaOf(question.media)?.image;
    if (image) pictures[question.id] = image;
  }
  return pictures;
}

/**
 * The current questions' options' pictures by question id and option label, for the pages that
 * show a review beside the answers and right answers they name by label.
 */
export function reviewOptionPictures(
  questions: readonly QuestionRow[],
): Record<string, Record<string, ImageRef>> {
  const pictures: Record<string, Record<string, ImageRef>> = {};
  for (const question of questions) {
    const refs = mediaOf(question.media)?.options;
    if (!refs) continue;
    const options = (toScorable(question) as { options?: ReadonlyArray<{ label: string }> }).options ?? [];
    const byLabel: Record<string, ImageRef> = {};
    options.forEach((option, index) => {
      const ref = refs[index];
      if (ref) byLabel[option.label] = ref;
    });
    pictures[question.id] = byLabel;
  }
  return pictures;
}
