import { nowOf, type DomainDeps } from '../deps';
import type { QuestionRow } from '../../db/repositories';
import { invalidInput } from '../errors';
import { optionsOf, respondentFieldsOf } from '../question-types';
import type { QuestionType } from '../question-types/names';
import { questionRecord, quizWithQuestionsRecord, settingsRecord } from '../quiz-records';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { imageRecord, mediaOf } from '../images/image-ref';
import { endpointCountForQuiz } from '../webhooks/endpoints';

export interface QuestionsQuery {
  /** `respondent`: the questions as respondents see them, without keys, scores or explanations. */
  view?: 'respondent' | undefined;
  /** Only these questions, in quiz order. */
  questionIds?: readonly string[] | undefined;
  /** Only the questions at these positions, 1-based and inclusive; `to` past the end reads to the end. */
  from?: number | undefined;
  to?: number | undefined;
}

export async function getQuizQuestions(deps: DomainDeps, ownerId: string, ref: string) {
  return quizWithQuestionsRecord(deps.baseUrl, await loadOwnedQuiz(deps, ownerId, ref));
}

/** get_quiz_questions: the quiz, or a few of its questions, as its owner or as respondents see them. */
export async function readQuizQuestions(
  deps: DomainDeps,
  ownerId: string,
  ref: string,
  query: QuestionsQuery,
) {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  const record = quizWithQuestionsRecord(deps.baseUrl, quiz);
  const picked = pickQuestions(quiz.questions, query);
  // Today's answer, byte for byte, unless a new argument asks for less.
  if (!picked && query.view === undefined) return record;
  const positions = new Map(quiz.questions.map((question, index) => [question.id, index + 1]));
  return {
    ...record,
    ...(query.view ? { view: query.view } : {}),
    questions: (picked ?? quiz.questions).map((question) => ({
      ...(query.view === 'respondent'
        ? respondentQuestion(question, deps.baseUrl)
        : questionRecord(question, deps.baseUrl)),
      ...(picked ? { position: positions.get(question.id)! } : {}),
    })),
  };
}

/** The questions a selection names, in quiz order; null when it names none (all of them). */
function pickQuestions(questions: readonly QuestionRow[], query: QuestionsQuery): QuestionRow[] | null {
  const { questionIds, from, to } = query;
  if (questionIds !== undefined && (from !== undefined || to !== undefined)) {
    throw invalidInput([{ field: 'question_ids', message: 'send either question_ids or from/to, not both' }]);
  }
  if (questionIds !== undefined) {
    const known = new Set(questions.map((question) => question.id));
    const unknown = questionIds.flatMap((id, index) =>
      known.has(id)
        ? []
        : [
            {
              field: `question_ids[${index}]`,
              message: 'not a question of this quiz; get_quiz_questions without question_ids lists them',
            },
          ],
    );
    if (unknown.length) throw invalidInput(unknown);
    const wanted = new Set(questionIds);
    return questions.filter((question) => wanted.has(question.id));
  }
  if (from === undefined && to === undefined) return null;
  const first = from ?? 1;
  const last = to ?? questions.length;
  if (first > questions.length) {
    throw invalidInput([
      {
        field: 'from',
        message: `the quiz has ${questions.length} question${questions.length === 1 ? '' : 's'}: start at ${questions.length || 1} or before`,
      },
    ]);
  }
  if (last < first) throw invalidInput([{ field: 'to', message: `must be at least from (${first})` }]);
  return questions.slice(first - 1, last);
}

/** What the public page shows of a question: its text, and the labels of its options. */
function respondentQuestion(question: QuestionRow, baseUrl: string) {
  const media = mediaOf(question.media);
  return {
    question_id: question.id,
    type: question.type as QuestionType,
    text: question.text,
    ...(media?.image ? { image: imageRecord(baseUrl, media.image) } : {}),
    ...respondentFieldsOf(question),
    ...(optionsOf(question).length
      ? {
          options: optionsOf(question).map((option, index) => {
            const ref = media?.options?.[index];
            return { label: option.label, ...(ref ? { image: imageRecord(baseUrl, ref) } : {}) };
          }),
        }
      : {}),
  };
}

/** The settings, and how many webhook endpoints receive the quiz's events (never which). */
export async function getQuizSettings(deps: DomainDeps, ownerId: string, ref: string) {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  return {
    ...settingsRecord(deps.baseUrl, quiz, nowOf(deps)),
    webhook_endpoints: await endpointCountForQuiz(deps.repos, ownerId, quiz.id),
  };
}
