import type { QuestionData, QuestionRow } from '../../db/repositories';
import { definitionOf, storedKeyOf, toScorable, type QuestionKey } from '../question-types';
import type { ResolvedQuestion } from '../images/resolve-images';
import { answerKeyOf } from '../scoring';

/**
 * From what a caller sends (one flat object per question, its type's fields already checked by
 * quiz-input.ts) to what is stored, with the defaults its type fills in (question-types/).
 */
export function toQuestionData(input: ResolvedQuestion, keepId?: string): QuestionData {
  return dataOf(input, definitionOf(input.type).fromInput(input) as QuestionKey, keepId);
}

function dataOf(input: ResolvedQuestion, key: QuestionKey, keepId?: string): QuestionData {
  return {
    ...(keepId ? { id: keepId } : {}),
    type: key.type,
    text: input.text,
    explanation: input.explanation ?? null,
    key: storedKeyOf(key),
    // Pictures are resolved before (images/resolve-images.ts); never part of the key.
    media: input.media ?? null,
  };
}

/**
 * The questions to store for an edit: an item that names a current question by `question_id`
 * keeps that id when it marks every answer as before (same type, answer key and scores: the
 * text, option labels and explanation may change), so the question's statistics go on. With
 * `remarking` (the owner fixes a key and re-marks past answers under it), it keeps the id across
 * a change of key too, as long as the past answers still fit it (same type, and its type's rule:
 * as many options for the choice types).
 * Any other item, a second item naming the same id, and an item `renews` names get a new id.
 */
export function questionsKeepingIds(
  current: readonly QuestionRow[],
  incoming: readonly ResolvedQuestion[],
  remarking = false,
  /** Items that get a new id whatever their key: a caller that may not read it (write-only.ts). */
  renews: (index: number) => boolean = () => false,
) {
  const byId = new Map(current.map((question) => [question.id, question]));
  const claimed = new Set<string>();
  return incoming.map((input, index) => {
    const key = definitionOf(input.type).fromInput(input) as QuestionKey;
    const data = dataOf(input, key);
    const previous = input.question_id ? byId.get(input.question_id) : undefined;
    if (!previous || claimed.has(previous.id) || renews(index)) return data;
    const before = toScorable(previous);
    const sameKey = answerKeyOf(before) === answerKeyOf(key);
    const carriesOver = before.type === key.type && definitionOf(key.type).answersCarryOver(before, key);
    if (!sameKey && !(remarking && carriesOver)) return data;
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
    if (data.id !== question.id || data.type !== question.type) return false;
    const after = toScorable({ ...question, key: data.key });
    return answerKeyOf(toScorable(question)) === answerKeyOf(after);
  });
}
