import type { QuestionData, QuestionRow } from '../../db/repositories';
import type { QuestionInput } from '../quiz-input';
import { toScorable } from '../quiz-records';
import { answerKeyOf, type ScorableQuestion } from '../scoring';

/**
 * From what a caller sends (one flat object per question, its type's fields already checked by
 * quiz-input.ts) to what is stored, with the defaults filled in: a yes/no question is worth 1
 * point for "yes" unless it says otherwise, a typed or number answer 1 point when right.
 */
export function toQuestionData(input: QuestionInput, keepId?: string): QuestionData {
  const common = {
    ...(keepId ? { id: keepId } : {}),
    text: input.text,
    explanation: input.explanation ?? null,
  };
  switch (input.type) {
    case 'yes_no':
      return {
        ...common,
        type: 'yes_no',
        points: input.points ?? 1,
        correctAnswer: input.correct_answer ?? 'yes',
      };
    case 'short_text':
      return {
        ...common,
        type: 'short_text',
        points: input.points ?? 1,
        acceptedAnswers: input.accepted_answers ?? [],
      };
    case 'number':
      return {
        ...common,
        type: 'number',
        points: input.points ?? 1,
        correctNumber: input.correct_number ?? 0,
        tolerance: input.tolerance ?? 0,
      };
    case 'multiple_choice':
    case 'multiple_select':
      return { ...common, type: input.type, options: input.options ?? [] };
  }
}

function scorable(data: QuestionData): ScorableQuestion {
  switch (data.type) {
    case 'yes_no':
      return { id: '', type: 'yes_no', points: data.points, correctAnswer: data.correctAnswer };
    case 'short_text':
      return { id: '', type: 'short_text', points: data.points, acceptedAnswers: data.acceptedAnswers };
    case 'number':
      return {
        id: '',
        type: 'number',
        points: data.points,
        correctNumber: data.correctNumber,
        tolerance: data.tolerance,
      };
    case 'multiple_choice':
    case 'multiple_select':
      return { id: '', type: data.type, options: data.options };
  }
}

/**
 * Whether a past answer to `previous` can be marked again under `next`: same type, and for
 * choice questions as many options (answers name options by index).
 */
function answersCarryOver(previous: QuestionRow, next: QuestionData): boolean {
  if (previous.type !== next.type) return false;
  if (next.type === 'multiple_choice' || next.type === 'multiple_select') {
    return previous.options.length === next.options.length;
  }
  return true;
}

/**
 * The questions to store for an edit: an item that names a current question by `question_id`
 * keeps that id when it marks every answer as before (same type, answer key and scores: the
 * text, option labels and explanation may change), so the question's statistics go on. With
 * `remarking` (the owner fixes a key and re-marks past answers under it), it keeps the id across
 * a change of key too, as long as the past answers still fit it (same type, as many options).
 * Any other item, and a second item naming the same id, gets a new id.
 */
export function questionsKeepingIds(
  current: readonly QuestionRow[],
  incoming: readonly QuestionInput[],
  remarking = false,
) {
  const byId = new Map(current.map((question) => [question.id, question]));
  const claimed = new Set<string>();
  return incoming.map((input) => {
    const data = toQuestionData(input);
    const previous = input.question_id ? byId.get(input.question_id) : undefined;
    if (!previous || claimed.has(previous.id)) return data;
    const sameKey = answerKeyOf({ ...toScorable(previous), id: '' }) === answerKeyOf(scorable(data));
    if (!sameKey && !(remarking && answersCarryOver(previous, data))) return data;
    claimed.add(previous.id);
    return { ...data, id: previous.id };
  });
}

/**
 * True when the edit leaves the same questions, in the same order, each marking answers as
 * before: only texts changed (question, option labels, explanation), so an attempt in progress
 * may still be submitted against the same version.
 */
export function onlyTextsChanged(current: readonly QuestionRow[], next: readonly QuestionData[]): boolean {
  if (current.length !== next.length) return false;
  return current.every((question, index) => {
    const data = next[index]!;
    return data.id === question.id && answerKeyOf(toScorable(question)) === answerKeyOf(scorable(data));
  });
}
