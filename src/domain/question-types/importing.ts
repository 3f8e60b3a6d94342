import type { ImportedAnswers, ImportShape, QuestionFields, TypeExport } from './definition';

// What the types' `importing` entries share (domain/import/ makes questions with them).

/** An imported question's answers as options, each scored by its share of the grade. */
export const importedOptions = (
  source: ImportedAnswers,
  score: (exact: number) => number,
): Omit<QuestionFields, 'type'> => ({
  options: source.answers.map((answer) => ({
    label: answer.text,
    score: score((source.grade * answer.fraction) / 100),
  })),
});

/**
 * The answers worth the most, for a type with one right answer (or one set of them) worth its
 * points: answers worth part of the grade are named as lost.
 */
export function bestAnswers(source: ImportedAnswers, lose: (what: string) => void) {
  const best = Math.max(0, ...source.answers.map((answer) => answer.fraction));
  if (source.answers.some((answer) => answer.fraction > 0 && answer.fraction < best)) {
    lose('answers worth part of the grade');
  }
  return { best, answers: source.answers.filter((answer) => best > 0 && answer.fraction === best) };
}

/** Options told as answers of a question graded 1: each option's score is its share, in percent. */
export const exportedOptions = (
  shape: ImportShape,
  record: { options: ReadonlyArray<{ label: string; score: number }> },
): TypeExport => ({
  shape,
  grade: 1,
  answers: record.options.map((option) => ({ text: option.label, fraction: option.score * 100 })),
  unsaid: [],
});
