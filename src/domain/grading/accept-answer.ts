import type { QuestionData, QuestionRow, QuizWithQuestions, StoredJson } from '../../db/repositories';
import type { DomainDeps } from '../deps';
import { invalidInput } from '../errors';
import { rowMedia } from '../images/resolve-images';
import { storedDefinition, storedKeyOf, toScorable, type QuestionKey } from '../question-types';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { quizNotFound } from '../owned/resolve-quiz';
import { unacceptedTexts } from '../stored-answer';
import { responseNotFound } from '../owned/owned-response';
import { plannedRemarks, remarkResponses } from './remark-responses';

/**
 * "Accept this answer": the owner marks one typed answer right (a short text, a typed blank).
 * Its text joins the question's accepted answers, and every past answer that matches it under
 * the type's own rule (case, spacing) is re-marked through the re-marking path. The question
 * keeps its id and statistics, and the quiz its version: the key only accepts more, so an
 * attempt in progress is marked under it when sent, never interrupted.
 */

export interface AcceptTarget {
  responseId: string;
  answerId: string;
  /** A blank's index (0-based) for an answer made of blanks; null for a whole answer. */
  part: number | null;
}

export interface AcceptPlan {
  quiz_id: string;
  quiz_title: string;
  question_id: string;
  question_text: string;
  /** Whether the quiz typesets $...$ (its math_dollars), for showing the question's text. */
  math_dollars: boolean;
  /** The text accepted, as the respondent typed it. */
  text: string;
  part: number | null;
  /** Responses whose marks change (this one among them). */
  responses_changed: number;
}

const refused = (message: string) => invalidInput([{ field: 'answer', message }], 'Nothing was changed');

/** The question's key with the answer's text accepted, or the refusal saying why not. */
function acceptedKey(question: QuestionRow, text: string, part: number | null): StoredJson {
  const definition = storedDefinition(question.type);
  const added = definition.accepting?.add(toScorable(question), part, text);
  if (!added) throw refused('Only a typed answer matched to accepted answers can be accepted.');
  if ('problem' in added) throw refused(`It cannot be accepted: ${added.problem}.`);
  return storedKeyOf(added.key as QuestionKey) as StoredJson;
}

/** The answer to accept, its question as the quiz has it now, and the key that would accept it. */
async function locate(deps: DomainDeps, ownerId: string, ref: string, target: AcceptTarget) {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  const response = await deps.repos.responses.ownedWithAnswers(ownerId, quiz.id, target.responseId);
  const answer = response?.answers.find((candidate) => candidate.id === target.answerId);
  // Another owner's answer, or one of another response: not found, as any object access.
  if (!answer) throw responseNotFound();
  const question = quiz.questions.find((candidate) => candidate.id === answer.questionId);
  if (!question || question.type !== answer.type)
    throw refused('The question was changed or removed since this answer: change its key in the editor.');
  const texts = unacceptedTexts(question, answer);
  const chosen = texts.find((candidate) => candidate.part === target.part);
  if (!chosen) {
    throw refused(
      texts.length === 0 && !storedDefinition(question.type).accepting
        ? 'Only a typed answer matched to accepted answers can be accepted.'
        : 'That answer is already marked right, or there is no typed answer there to accept.',
    );
  }
  return { quiz, question, text: chosen.text, key: acceptedKey(question, chosen.text, chosen.part) };
}

const withKey = (quiz: QuizWithQuestions, questionId: string, key: StoredJson): QuizWithQuestions => ({
  ...quiz,
  questions: quiz.questions.map((question) => (question.id === questionId ? { ...question, key } : question)),
});

/** What accepting the answer would do, written nowhere: the confirmation page's count. */
export async function planAcceptAnswer(
  deps: DomainDeps,
  ownerId: string,
  ref: string,
  target: AcceptTarget,
): Promise<AcceptPlan> {
  const { quiz, question, text, key } = await locate(deps, ownerId, ref, target);
  const remarks = await plannedRemarks(deps, withKey(quiz, question.id, key), [question.id]);
  return {
    quiz_id: quiz.id,
    quiz_title: quiz.title,
    question_id: question.id,
    question_text: question.text,
    math_dollars: quiz.mathDollars,
    text,
    part: target.part,
    responses_changed: remarks.length,
  };
}

/**
 * Accepts the answer: the key is changed under the quiz's lock from the question as it then
 * stands (a concurrent edit is never lost, and one that removed or re-keyed it refuses), then
 * the past answers are re-marked. Returns how many responses changed.
 */
export async function acceptAnswer(
  deps: DomainDeps,
  ownerId: string,
  ref: string,
  target: AcceptTarget,
): Promise<AcceptPlan> {
  const { quiz, question, text } = await locate(deps, ownerId, ref, target);
  const updated = await deps.repos.quizzes.update(
    ownerId,
    quiz.id,
    {
      settings: {},
      questionsFrom: (current) => {
        const now = current.questions.find((candidate) => candidate.id === question.id);
        if (!now || now.type !== question.type)
          throw refused('The question was changed or removed meanwhile: look at it in the editor.');
        const key = acceptedKey(now, text, target.part);
        const questions: QuestionData[] = current.questions.map((row) => ({
          id: row.id,
          type: row.type,
          text: row.text,
          explanation: row.explanation,
          key: row.id === now.id ? key : (row.key as StoredJson),
          media: rowMedia(row) as StoredJson | null,
        }));
        return { questions, keepVersion: true };
      },
    },
    () => undefined,
  );
  if (!updated) throw quizNotFound(ref);
  const { remarked: changed } = await remarkResponses(deps, updated, [question.id]);
  return {
    quiz_id: quiz.id,
    quiz_title: quiz.title,
    question_id: question.id,
    question_text: question.text,
    math_dollars: quiz.mathDollars,
    text,
    part: target.part,
    responses_changed: changed,
  };
}
