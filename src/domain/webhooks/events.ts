import { randomBytes } from 'node:crypto';
import type {
  CreatedResponse,
  GradedResponse,
  LazyOutboxEvent,
  NewAnswerRow,
  OutboxEvent,
  QuizRow,
} from '../../db/repositories';
import { answerColumns } from '../stored-answer';

/**
 * The events an endpoint can take, and the bodies sent for them: `{ type, timestamp, data }`
 * as Standard Webhooks has it, under about 20 KB. The API reference lists them
 * (docs/api-reference.ts reads WEBHOOK_EVENTS).
 */
export const WEBHOOK_EVENTS = {
  'response.submitted': 'A response was submitted: the full response, its score, pass result and answers.',
  'response.deleted': 'The owner deleted a response.',
  'response.graded':
    'A response waiting for grades is final: its last answer was graded, approved or overridden.',
  'quiz.published': 'A draft quiz was published.',
  'quiz.closed': 'A quiz stopped accepting responses: the owner closed it, or its closing time passed.',
  'quiz.deleted': 'The owner deleted a quiz with its responses.',
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;

const QUIZ_FIELD = 'The quiz: quiz_id, slug, title.';

/** The fields of each event's `data`, for the API reference and /openapi.json. */
export const WEBHOOK_EVENT_DATA: Record<WebhookEventType, Record<string, string>> = {
  'response.submitted': {
    response_id: 'The response.',
    quiz: QUIZ_FIELD,
    quiz_version: 'The version of the questions it answered.',
    submitted_at: 'When it was submitted (ISO 8601).',
    respondent: 'name and email, each null when not asked for or not given.',
    score: 'Points earned.',
    max_score: 'Points available.',
    percent: 'score / max_score x 100, or null when max_score is 0.',
    passed: 'Whether it reached the pass mark; null when the quiz has none.',
    answers:
      'One object per question in order: question_id, position, question_text, type, the answer given (choice, option_index, option_label, ...), points, max_points. question_text is left out, then the answers (null, with answers_omitted saying so), when the body would pass 20 KB.',
  },
  'response.deleted': { response_id: 'The deleted response.', quiz_id: 'Its quiz.' },
  'response.graded': {
    response_id: 'The response.',
    quiz: QUIZ_FIELD,
    graded_at: 'When its last grade was given (ISO 8601).',
    score: 'Points earned, final.',
    max_score: 'Points available.',
    percent: 'score / max_score x 100, or null when max_score is 0.',
    passed: 'Whether it reached the pass mark; null when the quiz has none.',
  },
  'quiz.published': {
    quiz: QUIZ_FIELD,
    published_at: 'When it was published (ISO 8601).',
    public_url: 'Its public page.',
  },
  'quiz.closed': {
    quiz: QUIZ_FIELD,
    closed_at: 'When it closed (ISO 8601).',
    reason: '"owner" (closed by its owner) or "closes_at" (its closing time passed).',
  },
  'quiz.deleted': {
    quiz: QUIZ_FIELD,
    deleted_at: 'When it was deleted (ISO 8601).',
    deleted_responses: 'How many responses went with it.',
  },
};
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

/** Sent by "Send test event" on the dashboard, to that endpoint only. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** Bodies above this lose detail (question texts, then answers) rather than grow. */
export const MAX_PAYLOAD_BYTES = 20_000;

/** "msg_" and 22 random characters: the webhook-id receivers de-duplicate by. */
export function newEventId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

export function eventBody(type: string, at: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

function outboxEvent(
  type: WebhookEventType,
  quiz: { id: string; ownerId: string },
  at: Date,
  data: Record<string, unknown>,
  id = newEventId(),
): OutboxEvent {
  return { id, ownerId: quiz.ownerId, quizId: quiz.id, type, payload: eventBody(type, at, data), at };
}

type QuizNames = Pick<QuizRow, 'id' | 'ownerId' | 'slug' | 'title'>;

const quizData = (quiz: QuizNames) => ({ quiz_id: quiz.id, slug: quiz.slug, title: quiz.title });

/** snake_case of a row's field name: every stored column of an answer is sent. */
const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

export interface SubmittedResponseData {
  respondentName: string | null;
  respondentEmail: string | null;
  quizVersion: number;
  score: number;
  maxScore: number;
  percent: number | null;
  passed: boolean | null;
  answers: readonly NewAnswerRow[];
}

/**
 * response.submitted, built once the response has its id and time (in its transaction), and only
 * when one of the owner's endpoints takes it.
 */
export function responseSubmittedEvent(
  quiz: QuizNames,
  response: SubmittedResponseData,
): LazyOutboxEvent<CreatedResponse> {
  return {
    ownerId: quiz.ownerId,
    quizId: quiz.id,
    type: 'response.submitted',
    build: (created) => submittedEventBody(quiz, response, created),
  };
}

function submittedEventBody(
  quiz: QuizNames,
  response: SubmittedResponseData,
  created: CreatedResponse,
): OutboxEvent {
  // Each answer with the fields it has always carried, one per column of the oldest types.
  const answers = response.answers.map((answer) =>
    Object.fromEntries(
      Object.entries({
        questionId: answer.questionId,
        position: answer.position,
        questionText: answer.questionText,
        type: answer.type,
        ...answerColumns(answer),
        points: answer.points,
        maxPoints: answer.maxPoints,
      }).map(([key, value]) => [snake(key), value]),
    ),
  );
  const data: Record<string, unknown> = {
    response_id: created.id,
    quiz: quizData(quiz),
    quiz_version: response.quizVersion,
    submitted_at: created.submittedAt.toISOString(),
    respondent: { name: response.respondentName, email: response.respondentEmail },
    score: response.score,
    max_score: response.maxScore,
    percent: response.percent,
    passed: response.passed,
    answers,
  };
  let event = outboxEvent('response.submitted', quiz, created.submittedAt, data);
  if (Buffer.byteLength(event.payload) > MAX_PAYLOAD_BYTES) {
    data.answers = answers.map(({ question_text: _text, ...rest }) => rest);
    event = { ...event, payload: eventBody(event.type, event.at, data) };
  }
  if (Buffer.byteLength(event.payload) > MAX_PAYLOAD_BYTES) {
    data.answers = null;
    data.answers_omitted = 'The answers did not fit in the event; read the response with get_results.';
    event = { ...event, payload: eventBody(event.type, event.at, data) };
  }
  return event;
}

export function responseDeletedEvent(
  quiz: Pick<QuizRow, 'id' | 'ownerId'>,
  responseId: string,
  at: Date,
): OutboxEvent {
  return outboxEvent('response.deleted', quiz, at, { response_id: responseId, quiz_id: quiz.id });
}

export function quizPublishedEvent(quiz: QuizNames, at: Date, publicUrl: string): OutboxEvent {
  return outboxEvent('quiz.published', quiz, at, {
    quiz: quizData(quiz),
    published_at: at.toISOString(),
    public_url: publicUrl,
  });
}

/**
 * quiz.closed. `reason` "owner": closed on the dashboard or with update_quiz; "closes_at": its
 * closing time passed. A scheduled close names the time it closed at, and its event id is
 * derived from the quiz and that time, so instances that each notice it write it once.
 */
export function quizClosedEvent(quiz: QuizNames, at: Date, reason: 'owner' | 'closes_at'): OutboxEvent {
  const id = reason === 'closes_at' ? `msg_closed_${quiz.id}_${at.getTime()}` : undefined;
  return outboxEvent(
    'quiz.closed',
    quiz,
    at,
    { quiz: quizData(quiz), closed_at: at.toISOString(), reason },
    id,
  );
}

export function quizDeletedEvent(quiz: QuizNames, at: Date, deletedResponses: number): OutboxEvent {
  return outboxEvent('quiz.deleted', quiz, at, {
    quiz: quizData(quiz),
    deleted_at: at.toISOString(),
    deleted_responses: deletedResponses,
  });
}

/**
 * response.graded, for each response a grading makes final (in the grading's transaction), built
 * only when one of the owner's endpoints takes it.
 */
export function responseGradedEvent(quiz: QuizNames, at: Date): LazyOutboxEvent<GradedResponse> {
  return {
    ownerId: quiz.ownerId,
    quizId: quiz.id,
    type: 'response.graded',
    build: (response) =>
      outboxEvent('response.graded', quiz, at, {
        response_id: response.responseId,
        quiz: quizData(quiz),
        graded_at: at.toISOString(),
        score: response.score,
        max_score: response.maxScore,
        percent: response.percent,
        passed: response.passed,
      }),
  };
}
