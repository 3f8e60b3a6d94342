import { definitionOf, isQuestionType, type TypeExport } from '../question-types';
import type { QuestionRecord } from '../quiz-records';

/**
 * What the exports share: a quiz's questions as the tools return them in, one file out, and,
 * per question, what the format could not hold (a field, or the whole question left out).
 */
export interface ExportedQuestion {
  /** Its place in the quiz, from 1. */
  n: number;
  question_id: string;
  type: QuestionRecord['type'];
  /** The whole question is not in the file. */
  left_out?: true;
  lost: string[];
}

export interface ExportSource {
  title: string;
  questions: readonly QuestionRecord[];
  /**
   * The bytes of the questions' pictures by their address, for the formats that carry them;
   * absent when only the notes of what a format loses are wanted.
   */
  pictures?: ReadonlyMap<string, Buffer>;
}

export interface QuizExporter {
  /** The Content-Type the file is served with. */
  contentType: string;
  /** The end of its file name, after the quiz's slug. */
  extension: string;
  build(quiz: ExportSource): { body: string; notes: ExportedQuestion[] };
}

/** A question told in the importer's shapes (its type's `exporting`), or null when its type has none. */
export function toldOf(record: QuestionRecord): TypeExport | null {
  if (!isQuestionType(record.type)) return null;
  return definitionOf(record.type).exporting?.(record) ?? null;
}

/** Each answer's points: its share of the grade. */
export const pointsOf = (told: TypeExport) =>
  told.answers.map((answer) => (told.grade * answer.fraction) / 100);

/** Pictures of the question or its options, for a format that cannot carry them. */
export function imagesLost(record: QuestionRecord): string[] {
  const options = (record as { options?: ReadonlyArray<{ image?: unknown }> }).options ?? [];
  return record.image || options.some((option) => option.image) ? ['images'] : [];
}
