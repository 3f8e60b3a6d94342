import type { QuestionRow, QuizRow, QuizWithQuestions } from '../db/repositories';
import { isOpen } from './attempts/taking-rules';
import { LANGUAGES, type Language } from './quiz-input';
import { storedDefinition, toScorable, type TypedRecord } from './question-types';
import { maxScoreOf } from './scoring';

export { toScorable };

/**
 * The records that every adapter shows (MCP payloads, dashboard pages): snake_case,
 * ISO-8601 timestamps, options in the order given. Built from database rows in one place.
 */

interface QuestionRecordBase {
  question_id: string;
  text: string;
  explanation: string | null;
}

export type QuestionRecord = QuestionRecordBase & TypedRecord;

/** When respondents see the answer key: the quiz's setting (results/answer-review.ts says what each means). */
export type ShowCorrectAnswers = 'never' | 'after_submit' | 'after_close';

export function showCorrectAnswersOf(quiz: Pick<QuizRow, 'showCorrectAnswers'>): ShowCorrectAnswers {
  const value = quiz.showCorrectAnswers;
  return value === 'after_submit' || value === 'after_close' ? value : 'never';
}

export function questionRecord(question: QuestionRow): QuestionRecord {
  const definition = storedDefinition(question.type);
  const key = toScorable(question);
  // The record's fields in the order the tools have always listed them: type, text, the key, explanation.
  return {
    question_id: question.id,
    type: key.type,
    text: question.text,
    ...definition.record(key),
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
    questions: quiz.questions.map(questionRecord),
  };
}

export function settingsRecord(baseUrl: string, quiz: QuizWithQuestions, now: number) {
  return {
    ...quizSummary(quiz),
    published_at: quiz.publishedAt?.toISOString() ?? null,
    public_url: publicUrl(baseUrl, quiz),
    accepting_responses: quiz.acceptingResponses,
    question_count: quiz.questions.length,
    max_score: maxScoreOf(quiz.questions.map(toScorable)),
    show_score_to_respondent: quiz.showScoreToRespondent,
    pass_mark_percent: quiz.passMarkPercent,
    collect_name: quiz.collectName,
    collect_email: quiz.collectEmail,
    require_all_answers: quiz.requireAllAnswers,
    show_correct_answers: showCorrectAnswersOf(quiz),
    allow_embedding: quiz.allowEmbedding,
    ...takingRecord(quiz, now),
    created_at: quiz.createdAt.toISOString(),
    updated_at: quiz.updatedAt.toISOString(),
  };
}

/** How the quiz is taken (attempts/taking-rules.ts), and whether it takes responses right now. */
export function takingRecord(quiz: QuizRow, now: number) {
  return {
    is_open: isOpen(quiz, now),
    time_limit_minutes: quiz.timeLimitMinutes,
    opens_at: quiz.opensAt?.toISOString() ?? null,
    closes_at: quiz.closesAt?.toISOString() ?? null,
    shuffle_questions: quiz.shuffleQuestions,
    shuffle_options: quiz.shuffleOptions,
    question_pool_size: quiz.questionPoolSize,
    max_attempts_per_email: quiz.maxAttemptsPerEmail,
    language: languageOf(quiz),
  };
}

/** The quiz's language; an unknown stored value reads as English. */
export function languageOf(quiz: Pick<QuizRow, 'language'>): Language {
  return (LANGUAGES as readonly string[]).includes(quiz.language) ? (quiz.language as Language) : 'en';
}

export type SettingsRecord = ReturnType<typeof settingsRecord>;
