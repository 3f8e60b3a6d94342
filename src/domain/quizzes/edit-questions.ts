import type { QuestionData, QuestionRow, QuizWithQuestions } from '../../db/repositories';
import { checkTakingSettings, mergeSettings } from '../attempts/taking-rules';
import { nowOf, type DomainDeps } from '../deps';
import { invalidInput, type FieldIssue } from '../errors';
import { toFieldIssues } from '../field-issues';
import { inputWording, LIMITS, QuestionInputSchema, type QuestionInput } from '../quiz-input';
import { questionRecord, quizSummary, toScorable } from '../quiz-records';
import { quizWarnings, type EditWarning, type QuizWarning } from './quiz-warnings';
import { TYPED_FIELDS } from '../question-types/definition';
import { overriddenKeptNote, remarkResponses } from '../grading/remark-responses';
import { maxScoreOf } from '../scoring';
import { onlyTextsChanged, questionsKeepingIds } from './question-data';
import { quizNotFound, resolveQuiz } from '../owned/resolve-quiz';
import { publishedNeedsConfirmation } from './update-quiz';
import { WRITE_ONLY_RENEWAL } from './write-only';
import type { QuestionMedia } from '../images/image-ref';
import {
  mergeMedia,
  quotaCheck,
  rememberSources,
  resolveImageParts,
  rowMedia,
  type ImageParts,
  type MediaChange,
} from '../images/resolve-images';

export const EDIT_OPERATIONS_MAX = 50;
export const EDIT_OPS = ['add', 'update', 'remove', 'move'] as const;

/** The question fields an operation may carry besides `op`, `question_id` and `position`. */
const FIELDS = ['type', 'text', 'image', 'explanation', ...TYPED_FIELDS] as const;
type Field = (typeof FIELDS)[number];

export type EditOperation = {
  op: (typeof EDIT_OPS)[number];
  question_id?: string;
  position?: number;
} & Partial<Record<Field, unknown>>;

export interface EditQuestionsInput {
  ref: string;
  operations: readonly EditOperation[];
  confirmEditPublished?: boolean | undefined;
  remarkPastResponses?: boolean | undefined;
  /**
   * False for a credential without quizzes:read: an update that sends a field of the key gets a
   * new id whether or not it equals the stored key, so the answer tells nothing of it (write-only.ts).
   */
  mayRead?: boolean | undefined;
}

/** What one operation did, as the answer reports it. */
interface Change {
  op: EditOperation['op'];
  /** The question's id after the edit; remove: the id removed. */
  question_id: string | null;
  /** 1-based, after the edit; null once removed. */
  position: number | null;
  /** update: the fields sent. */
  fields?: Field[];
  /** update: kept, or renewed when the answer key changed or a credential that cannot read it sent it (its statistics start over). */
  id?: 'kept' | 'renewed';
  previous_question_id?: string;
}

/** A question being edited: where it came from, what it will be. */
interface Item {
  /** The current question it edits; absent for an added one. */
  origin?: QuestionRow;
  input: QuestionInput;
  /** Its pictures, apart from the fields (images/resolve-images.ts). */
  media: QuestionMedia | null;
  /** The operations (by index) that touched it, for the answer. */
  changes: Change[];
  /** An update sent a field of its type's key (TYPED_FIELDS). */
  keyNamed?: boolean;
}

/** The fields that make up a question's key, whatever its type. */
const KEY_FIELDS = new Set<string>(TYPED_FIELDS);

const sent = (operation: EditOperation): Field[] => FIELDS.filter((field) => operation[field] !== undefined);

/** The fields of a stored question as a caller would send them back. */
function asInput(question: QuestionRow): QuestionInput {
  return questionRecord(question) as QuestionInput;
}

/**
 * Applies the operations, in order, to the quiz as the edit finds it (under its lock), or
 * throws with every operation that cannot apply; nothing is stored then.
 */
export function applyOperations(
  current: QuizWithQuestions,
  operations: readonly EditOperation[],
  remarking: boolean,
  pictures: ReadonlyArray<MediaChange | undefined> = [],
  mayRead = true,
): { questions: QuestionData[]; keepVersion: boolean; changes: Change[]; renewed: Map<string, number> } {
  const issues: FieldIssue[] = [];
  const items: Item[] = current.questions.map((question) => ({
    origin: question,
    input: asInput(question),
    media: rowMedia(question),
    changes: [],
  }));
  const changes: Change[] = [];
  operations.forEach((operation, index) => {
    const at = `operations[${index}]`;
    const problem = (field: string, message: string) => issues.push({ field: `${at}.${field}`, message });
    const found = operation.question_id
      ? items.findIndex((item) => item.origin?.id === operation.question_id)
      : -1;
    if (operation.op !== 'add') {
      if (!operation.question_id) return problem('question_id', `is required for ${operation.op}`);
      if (found < 0) {
        const ids = current.questions.map((question) => question.id);
        return problem(
          'question_id',
          ids.includes(operation.question_id)
            ? 'was removed by an earlier operation'
            : `is not a question of "${current.title}": use a question_id that get_quiz_questions returns for it`,
        );
      }
    }
    const positionOk = (max: number) => {
      if (operation.position === undefined) return true;
      if (operation.position > max) {
        problem(
          'position',
          `is ${operation.position} but the quiz would have ${max} places: use 1 to ${max}`,
        );
        return false;
      }
      return true;
    };
    const change: Change = { op: operation.op, question_id: null, position: null };
    switch (operation.op) {
      case 'add': {
        if (operation.question_id) return problem('question_id', 'add makes a new question: leave it out');
        const parsed = parseQuestion(pickFields(operation), at);
        if (!parsed.ok) return issues.push(...parsed.issues);
        if (!positionOk(items.length + 1)) return;
        const item: Item = {
          input: parsed.input,
          media: mergeMedia(null, pictures[index]),
          changes: [change],
        };
        items.splice((operation.position ?? items.length + 1) - 1, 0, item);
        break;
      }
      case 'update': {
        const fields = sent(operation);
        if (operation.position !== undefined)
          return problem('position', 'use a move operation to change places');
        if (fields.length === 0) return problem('op', 'update needs at least one field to change');
        const item = items[found]!;
        const typeChanges = operation.type !== undefined && operation.type !== item.input.type;
        // A new type keeps only the text and explanation; its own fields come from the operation.
        const base = typeChanges
          ? { type: item.input.type, text: item.input.text, explanation: item.input.explanation }
          : item.input;
        const parsed = parseQuestion({ ...base, ...pickFields(operation) }, at);
        if (!parsed.ok) return issues.push(...parsed.issues);
        item.input = parsed.input;
        item.media = mergeMedia(item.media, pictures[index]);
        change.fields = fields;
        if (!mayRead && fields.some((field) => KEY_FIELDS.has(field))) item.keyNamed = true;
        item.changes.push(change);
        break;
      }
      case 'remove':
        if (sent(operation).length > 0 || operation.position !== undefined) {
          return problem('op', 'remove takes only question_id');
        }
        items.splice(found, 1);
        change.question_id = operation.question_id!;
        break;
      case 'move': {
        if (operation.position === undefined) return problem('position', 'is required for move: 1-based');
        if (sent(operation).length > 0) return problem('op', 'move takes only question_id and position');
        if (!positionOk(items.length)) return;
        const [item] = items.splice(found, 1);
        items.splice(operation.position - 1, 0, item!);
        item!.changes.push(change);
        break;
      }
    }
    changes.push(change);
  });
  if (items.length > LIMITS.questionsMax) {
    issues.push({
      field: 'operations',
      message: `a quiz takes at most ${LIMITS.questionsMax} questions (this edit leaves ${items.length})`,
    });
  }
  if (current.status === 'published' && items.length === 0) {
    issues.push({ field: 'operations', message: 'a published quiz needs at least one question' });
  }
  if (issues.length > 0) throw invalidInput(issues, 'Nothing was changed');

  const questions = questionsKeepingIds(
    current.questions,
    items.map((item) => ({ ...item.input, question_id: item.origin?.id, media: item.media })),
    remarking,
    (index) => items[index]!.keyNamed === true,
  );
  const renewed = new Map<string, number>();
  items.forEach((item, position) => {
    const id = questions[position]!.id ?? null;
    for (const change of item.changes) {
      change.question_id = id;
      change.position = position + 1;
      if (change.op === 'update' && item.origin) {
        change.id = id === item.origin.id ? 'kept' : 'renewed';
        if (change.id === 'renewed') change.previous_question_id = item.origin.id;
      }
    }
    if (item.origin && id !== item.origin.id)
      renewed.set(item.origin.id, changes.indexOf(item.changes.at(-1)!));
  });
  return { questions, keepVersion: onlyTextsChanged(current.questions, questions), changes, renewed };
}

function pickFields(operation: EditOperation): Record<string, unknown> {
  return Object.fromEntries(
    FIELDS.flatMap((field) => (operation[field] === undefined ? [] : [[field, operation[field]]])),
  );
}

function parseQuestion(
  fields: Record<string, unknown>,
  at: string,
): { ok: true; input: QuestionInput } | { ok: false; issues: FieldIssue[] } {
  const parsed = QuestionInputSchema.safeParse(fields);
  if (parsed.success) return { ok: true, input: parsed.data };
  const issues = toFieldIssues(parsed.error, fields, inputWording(QuestionInputSchema));
  return { ok: false, issues: issues.map((issue) => ({ ...issue, field: `${at}.${issue.field}` })) };
}

/**
 * Changes single questions of a quiz: add, update (only the fields sent; `options` replaced
 * whole), remove, move, all in one transaction or none. A question keeps its id while it marks
 * answers as before (question-data.ts). An edit that changes only texts keeps the quiz's version,
 * so attempts in progress go on; any other raises it, as update_quiz does.
 */
export async function editQuestions(deps: DomainDeps, ownerId: string, input: EditQuestionsInput) {
  const { id } = await resolveQuiz(deps, ownerId, input.ref);
  const remarking = input.remarkPastResponses === true;
  // Pictures are fetched and decoded before the quiz is locked; the edit then only places them.
  const pictures = await resolveImageParts(
    deps,
    ownerId,
    input.operations.map((operation) =>
      operation.op === 'add' || operation.op === 'update' ? (operation as ImageParts) : {},
    ),
    'operations',
  );
  let applied: ReturnType<typeof applyOperations> | undefined;
  const quiz = await deps.repos.quizzes.update(
    ownerId,
    id,
    {
      settings: {},
      images: quotaCheck(deps, pictures.write.blobs),
      questionsFrom: (current) => {
        if (current.status === 'published' && input.confirmEditPublished !== true) {
          throw publishedNeedsConfirmation(current.title);
        }
        applied = applyOperations(
          current,
          input.operations,
          remarking,
          pictures.changes,
          input.mayRead !== false,
        );
        checkTakingSettings(mergeSettings(current, {}), undefined, applied.questions.length, nowOf(deps));
        return applied;
      },
    },
    () => undefined,
  );
  if (!quiz || !applied) throw quizNotFound(input.ref);
  await rememberSources(deps, ownerId, pictures.write.sources);
  const { changes, keepVersion, renewed } = applied;
  // New questions get their ids when stored: read them by position.
  for (const change of changes) {
    if (change.position !== null) change.question_id = quiz.questions[change.position - 1]?.id ?? null;
  }
  const warnings: Array<EditWarning | QuizWarning> = [...renewed].map(([previous, index]) => {
    const change = changes[index]!;
    return {
      code: 'question_id_renewed',
      question_id: change.question_id,
      field: `operations[${index}]`,
      message:
        input.mayRead === false
          ? `${previous} became ${String(change.question_id)}: ${WRITE_ONLY_RENEWAL}.`
          : `${previous} became ${String(change.question_id)}: its answer key changed, so its statistics start over${
              remarking
                ? ' (its past answers no longer fit it)'
                : '; remark_past_responses: true keeps the id and re-marks past answers'
            }.`,
    };
  });
  // What the quiz now holds that is probably not meant, for the questions this edit wrote.
  const written = new Map(
    changes.flatMap((change, index) =>
      (change.op === 'add' || change.op === 'update') && change.question_id
        ? [[change.question_id, index]]
        : [],
    ),
  );
  for (const warning of quizWarnings(
    quiz.questions.map((question) => questionRecord(question)),
    quiz,
  )) {
    // The description's warnings are update_quiz's to give: this edit does not change it.
    if (warning.question_id === null) continue;
    const index = written.get(warning.question_id);
    if (index === undefined) continue;
    warnings.push({ ...warning, field: warning.field.replace(/^questions\[\d+\]/, `operations[${index}]`) });
  }
  const updatedIds = changes.flatMap((change) =>
    change.id === 'kept' && change.question_id ? [change.question_id] : [],
  );
  const remarked = remarking ? await remarkResponses(deps, quiz, updatedIds) : undefined;
  const verb = changes.length === 1 ? 'operation' : 'operations';
  return {
    ...quizSummary(quiz),
    question_count: quiz.questions.length,
    max_score: maxScoreOf(quiz.questions.map(toScorable)),
    version_raised: !keepVersion,
    changes,
    ...(remarked !== undefined ? { remarked_responses: remarked.remarked } : {}),
    // Only when the re-marking kept an override: absent on every other answer.
    ...(remarked && remarked.overriddenKept > 0 ? { overridden_kept: remarked.overriddenKept } : {}),
    warnings,
    message:
      `${changes.length} ${verb} applied. ` +
      (keepVersion
        ? 'Only texts changed: attempts in progress go on.'
        : 'Keys, scores or questions changed: a new version, so attempts in progress are asked to submit again.') +
      (remarked && remarked.overriddenKept > 0 ? ` ${overriddenKeptNote(remarked.overriddenKept)}` : ''),
  };
}
