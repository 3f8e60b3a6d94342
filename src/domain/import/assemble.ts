import { invalidInput } from '../errors';
import { toFieldIssues } from '../field-issues';
import type { QuestionMedia } from '../images/image-ref';
import { QUESTION_TYPE_DEFINITIONS, type ImportShape } from '../question-types';
import { inputWording, LIMITS, QuestionInputSchema, type QuestionInput } from '../quiz-input';
import { readAiken } from './aiken';
import {
  IMPORT_FORMATS,
  note,
  UnreadableBank,
  type ImportFormat,
  type SourceBank,
  type SourceQuestion,
} from './bank';
import { looksLikeOurCsv, readCsv } from './csv';
import { readGift } from './gift';
import { QtiDocument, readMoodleXml } from './moodle-xml';
import { readQtiDocument } from './qti';

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
  // A `{` with a `}` after it, as /\{[\s\S]*\}/ asks, without scanning to the end from each `{`.
  const braces = start.replace(/\\[{}]/g, '');
  const open = braces.indexOf('{');
  if (open >= 0 && braces.lastIndexOf('}') > open) return 'gift';
  return null;
}

/** `field`: where the caller sent the bank (pasted `text`, or an `upload_id`), named in a refusal. */
export function readBank(text: string, format: ImportFormat | undefined, field = 'text'): SourceBank {
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
    try {
      return READERS[told](text);
    } catch (error) {
      // A QTI item or test sent as one XML file (not a package) is read as QTI.
      if (error instanceof QtiDocument) return readQtiDocument(error.root);
      throw error;
    }
  } catch (error) {
    if (error instanceof UnreadableBank) {
      throw invalidInput([{ field, message: `${told}: ${error.message}` }], 'Nothing was imported');
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

/** What the importer calls each shape in a question that cannot be held (yet). */
const SHAPE_WORDS: Readonly<Record<ImportShape, string>> = {
  truth: 'true or false',
  one_choice: 'one right choice',
  many_choices: 'several right choices',
  text_answers: 'a typed answer',
  numeric: 'a number',
  pairs: 'pairs to match',
  sequence: 'items to put in order',
  blanks: 'blanks to fill in',
  open: 'a long written answer',
  rating: 'a rating on a scale',
  matrix: 'a choice per row of a grid',
  formula: 'a formula over numbers drawn per attempt',
};

/** The type of ours that a shape is imported as, if any (its module's `importing`). */
export const typeForShape = (shape: ImportShape) =>
  QUESTION_TYPE_DEFINITIONS.find((definition) => definition.importing?.shape === shape);

/** The exact scores a question's type would give it, before the scale. */
function exactScores(question: SourceQuestion): number[] {
  const found: number[] = [];
  const importing = question.shape ? typeForShape(question.shape)?.importing : undefined;
  importing?.build(
    question,
    (exact) => {
      found.push(exact);
      return 0;
    },
    () => undefined,
  );
  return found;
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

export interface ImportedQuestion {
  /** 1-based, in the order of the file. */
  n: number;
  at: string;
  name?: string;
  from: string;
  shape: ImportShape | null;
  text: string;
  /** The question our tools take, when it can be imported. */
  input?: QuestionInput;
  /** Its pictures, once decoded (bank-images.ts). */
  media?: QuestionMedia | null;
  lost: string[];
  /** How the import rewrote the texts it keeps (SourceQuestion.changed). */
  changed: string[];
  /** How the scoring rule changed its scores ("33.333 → 33"). */
  regraded: string[];
  problems: string[];
}

export function assemble(bank: SourceBank): { scale: number; questions: ImportedQuestion[] } {
  const scale = scaleOf(bank.questions.filter((question) => question.problems.length === 0));
  const questions = bank.questions.map((question, index): ImportedQuestion => {
    const item: ImportedQuestion = {
      n: index + 1,
      at: question.at,
      ...(question.name ? { name: question.name } : {}),
      from: question.sourceType,
      shape: question.shape,
      text: question.text,
      lost: question.lost,
      changed: question.changed ?? [],
      regraded: [],
      problems: [...question.problems],
    };
    const definition = question.shape ? typeForShape(question.shape) : undefined;
    if (question.shape && !definition) {
      item.problems.push(
        `${question.at}: questions that ask for ${SHAPE_WORDS[question.shape]} cannot be held yet`,
      );
    }
    // A reader that names the shape but not its parts (pairs, blanks) does not read them yet.
    const unread =
      (question.shape === 'pairs' && !question.pairs) ||
      (question.shape === 'blanks' && !question.blanks) ||
      (question.shape === 'matrix' && !question.matrix);
    if (question.shape && definition && unread) {
      item.problems.push(
        `${question.at}: questions that ask for ${SHAPE_WORDS[question.shape]} are not read from this format yet`,
      );
    }
    if (!definition?.importing || item.problems.length > 0) return item;
    const fields = {
      type: definition.name,
      text: question.text,
      ...(question.explanation ? { explanation: question.explanation.slice(0, LIMITS.explanationMax) } : {}),
      ...definition.importing.build(
        question,
        (exact) => scored(exact, scale, item.regraded),
        (what) => note(item.lost, what),
      ),
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
