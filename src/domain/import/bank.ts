import type {
  ImportedBlank,
  ImportedEssay,
  ImportedMatrix,
  ImportedFormula,
  ImportedPairs,
  ImportShape,
} from '../question-types';

/**
 * The one intermediate form every import format is read into (one module per format beside this
 * file), before the scoring rule and our question types are applied (assemble.ts). A reader takes
 * the file's bytes (or pasted text) and its name, so the pasted text of a tool call, an uploaded
 * file and an entry of a package all go through the same reader.
 */

export const IMPORT_FORMATS = ['gift', 'aiken', 'moodle_xml', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
/** What a bank was read from: pasted or uploaded text, or a QTI package (zip bytes, qti.ts). */
export const BANK_FORMATS = [...IMPORT_FORMATS, 'qti'] as const;
export type BankFormat = (typeof BANK_FORMATS)[number];

/** One answer of the source: its text and its share of the question's grade, in percent. */
export interface SourceAnswer {
  text: string;
  /** 100 is full marks, 0 none, negative a penalty; Moodle and GIFT weights as written. */
  fraction: number;
  /** number questions: the allowed distance. */
  tolerance?: number;
  /** Its picture, when the source carries one (an option's). */
  image?: SourceImage;
}

/** What a picture is called when the source gives no words for it (the preview says so). */
export const DEFAULT_IMAGE_ALT = 'Picture';

/**
 * A picture the source carries with its bytes (Moodle XML's `<file>`, a package's file), decoded
 * and stored by bank-images.ts like any picture sent to create_quiz.
 */
export interface SourceImage {
  /** Its file name in the source, for the preview. */
  name: string;
  /** The words the source gives for it (an `<img alt>`); null: none, a stated default is used. */
  alt: string | null;
  bytes: Uint8Array;
}

export interface SourceQuestion {
  /** Where it starts, for the preview: "line 12" or "question 3 (line 40)". */
  at: string;
  /** Its name or title in the source, when it has one. */
  name?: string;
  /** The source's own type name ("multichoice", "truefalse", "gift matching"...). */
  sourceType: string;
  /** What it asks for (question-types/definition.ts); null when nothing of ours could hold it. */
  shape: ImportShape | null;
  /** Plain text (HTML already reduced to text). */
  text: string;
  explanation?: string;
  /** The question's grade in the source (Moodle's defaultgrade; 1 when the format has none). */
  grade: number;
  /** multiple choice kinds, short answers, numbers; yes_no: one answer "true" or "false". */
  answers: SourceAnswer[];
  /** A rating: the lowest and highest values offered. */
  range?: { min: number; max: number };
  /** Pairs to match (the grade is split evenly per pair). */
  pairs?: ImportedPairs;
  /** Blanks, in the order of the `[[n]]` markers already written into `text`. */
  blanks?: ImportedBlank[];
  /** An essay's word limits and rubric, when the format says them. */
  essay?: ImportedEssay;
  /** Rows answered against shared columns. */
  matrix?: ImportedMatrix;
  /** A formula question's formula, variables and tolerance. */
  formula?: ImportedFormula;
  /** The question's own picture. */
  image?: SourceImage;
  /** What the source holds that our question will not: per-option feedback, images, penalties. */
  lost: string[];
  /** How the import rewrote the texts it keeps (a format marker taken off, entities decoded). */
  changed?: string[];
  /** What could not be read, each with the line or element. */
  problems: string[];
}

export interface SourceBank {
  format: BankFormat;
  questions: SourceQuestion[];
  /** Problems of the file as a whole, outside any question (an unknown CSV column, a stray line). */
  problems: string[];
}

/** A problem that stops the whole file being read (not XML at all, an unclosed brace...). */
export class UnreadableBank extends Error {
  override readonly name = 'UnreadableBank';
}

/**
 * A question's category in Moodle (a `$CATEGORY:` line, a `<question type="category">`): a quiz
 * has no bank of categories to put it in, so the path is named with what the question loses.
 */
export const categoryLost = (path: string) => `its Moodle category (${path})`;

/** Notes, once, how the import rewrote one of the question's texts. */
export function noteChange(question: Pick<SourceQuestion, 'changed'>, entry: string): void {
  note((question.changed ??= []), entry);
}

/** What the preview says of a text read from HTML: entities decoded, tags read as line breaks. */
export const CHANGES = {
  entities: 'HTML character references decoded (&eacute; → é)',
  tags: 'HTML read as plain text (paragraphs and line breaks kept as new lines)',
  marker: (marker: string) => `its format marker [${marker}] taken off`,
} as const;

/** Adds an entry to a list once. */
export function note(list: string[], entry: string): void {
  if (!list.includes(entry)) list.push(entry);
}
