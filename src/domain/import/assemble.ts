import { invalidInput } from '../errors';
import { toFieldIssues } from '../field-issues';
import { isQuestionType, type QuestionType } from '../question-types';
import { inputWording, LIMITS, QuestionInputSchema, type QuestionInput } from '../quiz-input';
import { readAiken } from './aiken';
import {
  IMPORT_FORMATS,
  note,
  UnreadableBank,
  type ImportFormat,
  type SourceBank,
  type SourceQuestion,
  type TargetType,
} from './bank';
import { looksLikeOurCsv, readCsv } from './csv';
import { readGift } from './gift';
import { readMoodleXml } from './moodle-xml';

/**
 * From a file to the questions our tools take: the format told (or detected), the reader of
 * that format (one module each), one scoring rule for the whole bank, our question types, and
 * each question checked with the tools' own schema.
 */

const READERS: Readonly<Record<ImportFormat, (source: string) => SourceBank>> = {
  gift: readGift,
  aiken: readAiken,
  moodle_xml: readMoodleXml,
  csv: readCsv,
};

/** The format a text is written in, or null when none fits. */
export function detectFormat(text: string): ImportFormat | null {
  const start = text.replace(/^\ufeff/, '').trimStart();
  if (start.startsWith('<')) return 'moodle_xml';
  if (looksLikeOurCsv(start)) return 'csv';
  if (/^ANSWER\s*:\s*[A-Z]\s*$/im.test(start) && /^[A-Z][.)]\s*\S/m.test(start)) return 'aiken';
  if (/\{[\s\S]*\}/.test(start.replace(/\\[{}]/g, ''))) return 'gift';
  return null;
}

export function readBank(text: string, format: ImportFormat | undefined): SourceBank {
  const told = format ?? detectFormat(text);
  if (!told) {
    throw invalidInput(
      [
        {
          field: 'format',
          message: `could not tell the format: send format, one of ${IMPORT_FORMATS.join(', ')} (GIFT questions have {answers}, Aiken ends each question with ANSWER: X, Moodle XML starts with <quiz>, our CSV with a header row naming type and text)`,
        },
      ],
      'Nothing was imported',
    );
  }
  try {
    return READERS[told](text);
  } catch (error) {
    if (error instanceof UnreadableBank) {
      throw invalidInput([{ field: 'text', message: `${told}: ${error.message}` }], 'Nothing was imported');
    }
    throw error;
  }
}

/**
 * The one fixed scoring rule (the API reference's "Importing questions"): an answer worth
 * `fraction` percent of a question graded `grade` is worth grade × fraction / 100 points, times
 * the bank's scale: 1, or 10, or 100, the first that makes every score of the bank whole. Scores
 * still not whole are rounded half away from zero, and scores beyond the bounds of a score are
 * held at them; each question that changes so is listed.
 */
export const SCALES = [1, 10, 100] as const;

const close = (a: number, b: number) => Math.abs(a - b) < 1e-6;

/** The exact (unscaled) scores a question's type would give. */
function exactScores(question: SourceQuestion): number[] {
  const best = Math.max(0, ...question.answers.map((answer) => answer.fraction));
  switch (question.target) {
    case 'multiple_choice':
    case 'multiple_select':
      return question.answers.map((answer) => (question.grade * answer.fraction) / 100);
    case 'yes_no':
      return [question.grade];
    case 'short_text':
    case 'number':
      return [(question.grade * best) / 100];
    default:
      return [];
  }
}

export function scaleOf(questions: readonly SourceQuestion[]): number {
  const scores = questions.flatMap(exactScores);
  return (
    SCALES.find((scale) => scores.every((score) => close(score * scale, Math.round(score * scale)))) ?? 100
  );
}

function scored(exact: number, scale: number, changed: string[]): number {
  const value = exact * scale;
  const rounded = Math.sign(value) * Math.round(Math.abs(value));
  const held = Math.min(LIMITS.pointsMax, Math.max(LIMITS.pointsMin, rounded));
  if (!close(held, value)) changed.push(`${+value.toFixed(3)} → ${held}`);
  return held;
}

type Builder = (question: SourceQuestion, scale: number, changed: string[]) => Record<string, unknown>;

const choiceBuilder =
  (type: 'multiple_choice' | 'multiple_select'): Builder =>
  (question, scale, changed) => ({
    type,
    options: question.answers.map((answer) => ({
      label: answer.text,
      score: scored((question.grade * answer.fraction) / 100, scale, changed),
    })),
  });

/** Answers worth less than the best: our short_text and number have one right answer (or set). */
function lesserAnswers(question: SourceQuestion, best: number): void {
  if (question.answers.some((answer) => answer.fraction > 0 && answer.fraction < best)) {
    note(question.lost, 'answers worth part of the grade');
  }
}

/**
 * How each of our types is built from a source question. A type with no entry here is reported
 * as not held yet; a new question type becomes importable by adding its entry.
 */
const BUILDERS: Partial<Record<QuestionType, Builder>> = {
  yes_no: (question, scale, changed) => ({
    type: 'yes_no',
    correct_answer: question.answers[0]?.text === 'false' ? 'no' : 'yes',
    points: scored(question.grade, scale, changed),
  }),
  multiple_choice: choiceBuilder('multiple_choice'),
  multiple_select: choiceBuilder('multiple_select'),
  short_text: (question, scale, changed) => {
    const best = Math.max(0, ...question.answers.map((answer) => answer.fraction));
    lesserAnswers(question, best);
    return {
      type: 'short_text',
      accepted_answers: question.answers
        .filter((answer) => best > 0 && answer.fraction === best)
        .map((answer) => answer.text),
      points: scored((question.grade * best) / 100, scale, changed),
    };
  },
  number: (question, scale, changed) => {
    const best = Math.max(0, ...question.answers.map((answer) => answer.fraction));
    const right = question.answers.find((answer) => answer.fraction === best);
    lesserAnswers(question, best);
    if (question.answers.filter((answer) => answer.fraction === best).length > 1) {
      note(question.lost, 'other right values');
    }
    return {
      type: 'number',
      ...(right ? { correct_number: Number(right.text), tolerance: right.tolerance ?? 0 } : {}),
      points: scored((question.grade * best) / 100, scale, changed),
    };
  },
};

export interface ImportedQuestion {
  /** 1-based, in the order of the file. */
  n: number;
  at: string;
  name?: string;
  from: string;
  /** Our type it becomes, or null when it cannot be held. */
  type: TargetType | null;
  text: string;
  /** The question our tools take, when it can be imported. */
  input?: QuestionInput;
  lost: string[];
  /** How the scoring rule changed its scores ("33.333 → 33"). */
  regraded: string[];
  problems: string[];
}

export function assemble(bank: SourceBank): { scale: number; questions: ImportedQuestion[] } {
  const buildable = bank.questions.filter(
    (question) =>
      question.problems.length === 0 &&
      question.target !== null &&
      isQuestionType(question.target) &&
      BUILDERS[question.target],
  );
  const scale = scaleOf(buildable);
  const questions = bank.questions.map((question, index): ImportedQuestion => {
    const item: ImportedQuestion = {
      n: index + 1,
      at: question.at,
      ...(question.name ? { name: question.name } : {}),
      from: question.sourceType,
      type: question.target,
      text: question.text,
      lost: question.lost,
      regraded: [],
      problems: [...question.problems],
    };
    const target = question.target;
    const builder = target && isQuestionType(target) ? BUILDERS[target] : undefined;
    if (target && !builder) {
      item.problems.push(`${question.at}: ${target} questions cannot be held yet`);
    }
    if (!builder || item.problems.length > 0) return item;
    const fields = {
      ...builder(question, scale, item.regraded),
      text: question.text,
      ...(question.explanation ? { explanation: question.explanation.slice(0, LIMITS.explanationMax) } : {}),
    };
    if (question.explanation && question.explanation.length > LIMITS.explanationMax) {
      item.lost.push(`the explanation past ${LIMITS.explanationMax} characters`);
    }
    const parsed = QuestionInputSchema.safeParse(fields);
    if (parsed.success) item.input = parsed.data;
    else {
      for (const issue of toFieldIssues(parsed.error, fields, inputWording(QuestionInputSchema))) {
        item.problems.push(`${question.at}: ${issue.field}: ${issue.message}`);
      }
    }
    return item;
  });
  return { scale, questions };
}
