import { TYPED_FIELDS } from '../domain/question-types/definition';
import type { Principal } from '../identity/principal';

/**
 * What a tool answers a credential that may change quizzes but not read them (an OAuth token
 * approved for `quizzes:write` alone): ids, status and what the call did, never the answer key,
 * scores, explanations or another quiz's title. Applied once, by the registry, to every tool's
 * answer, so the text content, `structuredContent` and the in-chat view all carry the same.
 */
export function mayRead(principal: Principal): boolean {
  return principal.scopes.has('quizzes:read');
}

/**
 * Fields that hold a key, a score or an explanation, wherever they sit in an answer: every
 * type's own fields, so a new type's key is left out without a line here.
 */
const KEY_FIELDS = new Set<string>([...TYPED_FIELDS, 'explanation', 'max_score']);

/** What a question keeps: the fields every output schema lists, and that the view draws. */
const QUESTION_FIELDS = ['question_id', 'type', 'text'] as const;

/**
 * Warnings whose message quotes nothing stored (ids, counts, the caller's own dates); any other
 * code, including one added later, gets the message below instead of its own.
 */
const MESSAGES_WITHOUT_STORED_VALUES = new Set([
  'question_id_renewed',
  'all_questions_removed',
  'past_time_cleared',
  'reopened',
  'answer_key_hidden',
]);

const WRITE_ONLY_MESSAGES: Record<string, string> = {
  no_points_possible: 'nobody can earn points here as it stands; check the scores or points sent',
  field_reset: 'was left out, so it went back to its default; send it to keep it',
};

const GENERIC_MESSAGE = 'probably not meant; a credential with quizzes:read can see why';

type Json = unknown;

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function question(value: Json): Json {
  if (!isRecord(value)) return value;
  return Object.fromEntries(QUESTION_FIELDS.filter((key) => key in value).map((key) => [key, value[key]]));
}

function warning(value: Json): Json {
  if (!isRecord(value) || typeof value.code !== 'string') return value;
  if (MESSAGES_WITHOUT_STORED_VALUES.has(value.code)) return value;
  return { ...value, message: WRITE_ONLY_MESSAGES[value.code] ?? GENERIC_MESSAGE };
}

function project(value: Json): Json {
  if (Array.isArray(value)) return value.map(project);
  if (!isRecord(value)) return value;
  const kept: Record<string, Json> = {};
  for (const [key, child] of Object.entries(value)) {
    if (KEY_FIELDS.has(key)) continue;
    if (key === 'questions' && Array.isArray(child)) kept[key] = child.map(question);
    else if (key === 'warnings' && Array.isArray(child)) kept[key] = child.map(warning);
    // The quiz a copy was made from is another quiz: its id only.
    else if (key === 'duplicated_from' && isRecord(child)) kept[key] = { ...child, title: '' };
    else kept[key] = project(child);
  }
  // A copy's title is taken from the original's unless the caller gave one.
  if ('duplicated_from' in kept && typeof kept.title === 'string') kept.title = '';
  return kept;
}

/** The answer as `principal` may see it: unchanged for a credential that may read quizzes. */
export function answerFor(principal: Principal, answer: Record<string, unknown>): Record<string, unknown> {
  return mayRead(principal) ? answer : (project(answer) as Record<string, unknown>);
}
