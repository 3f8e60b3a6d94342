import type { QuestionRow, QuizRow, QuizWithQuestions } from '../db/repositories';
import { isOpen } from './attempts/taking-rules';
import { settingsOutputShape, settingValues, type SettingValues } from './quiz-settings';
import { storedDefinition, toScorable, type TypedRecord } from './question-types';
import { maxScoreOf } from './scoring';
import { imageRecord, mediaOf, type ImageRecord } from './images/image-ref';

export { toScorable };

/**
 * The records that every adapter shows (MCP payloads, dashboard pages): snake_case,
 * ISO-8601 timestamps, options in the order given. Built from database rows in one place.
 */

interface QuestionRecordBase {
  question_id: string;
  text: string;
  explanation: string | null;
  /** Only when it has one: a question without stays as it always was. */
  image?: ImageRecord;
}

export type QuestionRecord = QuestionRecordBase & TypedRecord;

// When respondents see the answer key: the quiz's setting (taking/answer-review.ts says what each means).
export { showCorrectAnswersOf, languageOf, type ShowCorrectAnswers } from './quiz-settings';

export function questionRecord(question: QuestionRow, baseUrl?: string): QuestionRecord {
  const definition = storedDefinition(question.type);
  const key = toScorable(question);
  const typed = definition.record(key) as { options?: Array<Record<string, unknown>> };
  const media = baseUrl === undefined ? null : mediaOf(question.media);
  if (media?.options && typed.options) {
    typed.options = typed.options.map((option, index) => {
      const ref = media.options![index];
      return ref ? { ...option, image: imageRecord(baseUrl!, ref) } : option;
    });
  }
  // The record's fields in the order the tools have always listed them: type, text, the key, explanation.
  return {
    question_id: question.id,
    type: key.type,
    text: question.text,
    ...(media?.image ? { image: imageRecord(baseUrl!, media.image) } : {}),
    ...typed,
    explanation: question.explanation,
  } as QuestionRecord;
}

export function publicUrl(baseUrl: string, quiz: Pick<QuizRow, 'slug' | 'status'>): string | null {
  return quiz.status === 'published' ? `${baseUrl}/q/${quiz.slug}` : null;
}

export function quizSummary(quiz: Pick<QuizRow, 'id' | 'slug' | 'title' | 'status'>) {
  return { quiz_id: quiz.id, slug: quiz.slug, title: quiz.title, status: quiz.status as QuizStatus };
}

export type QuizStatus = 'draft' | 'published';

export function quizWithQuestionsRecord(baseUrl: string, quiz: QuizWithQuestions) {
  return {
    ...quizSummary(quiz),
    description: quiz.description,
    public_url: publicUrl(baseUrl, quiz),
    question_count: quiz.questions.length,
    max_score: maxScoreOf(quiz.questions.map(toScorable)),
    updated_at: quiz.updatedAt.toISOString(),
    questions: quiz.questions.map((question) => questionRecord(question, baseUrl)),
  };
}

/**
 * The quiz's settings record: where it stands, then every setting of the table (quiz-settings.ts)
 * in its order, `is_open` ahead of how it is taken, then its times.
 */
export function settingsRecord(baseUrl: string, quiz: QuizWithQuestions, now: number) {
  const { accepting_responses, ...settings } = settingValues(quiz);
  const taking = settingsOutputShape('taking');
  const how = Object.fromEntries(Object.entries(settings).filter(([name]) => !(name in taking)));
  const taken = Object.fromEntries(Object.entries(settings).filter(([name]) => name in taking));
  return {
    ...quizSummary(quiz),
    published_at: quiz.publishedAt?.toISOString() ?? null,
    public_url: publicUrl(baseUrl, quiz),
    accepting_responses,
    question_count: quiz.questions.length,
    max_score: maxScoreOf(quiz.questions.map(toScorable)),
    ...(how as Omit<SettingValues, 'accepting_responses'>),
    is_open: isOpen(quiz, now),
    ...(taken as Omit<SettingValues, 'accepting_responses'>),
    created_at: quiz.createdAt.toISOString(),
    updated_at: quiz.updatedAt.toISOString(),
  };
}

export type SettingsRecord = ReturnType<typeof settingsRecord>;
