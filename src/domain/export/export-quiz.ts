import type { QuizWithQuestions } from '../../db/repositories';
import type { DomainDeps } from '../deps';
import { questionRecord } from '../quiz-records';
import { loadOwnedQuiz } from '../quizzes/get-quiz';
import type { ExportedQuestion, ExportSource, QuizExporter } from './exported';
import { giftExporter } from './gift';
import { moodleXmlExporter } from './moodle-xml';

/** The formats a quiz's questions are exported in, each a signed link of get_quiz_links. */
export const EXPORT_FORMATS = ['moodle_xml', 'gift'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const EXPORTERS: Readonly<Record<ExportFormat, QuizExporter>> = {
  moodle_xml: moodleXmlExporter,
  gift: giftExporter,
};

/** What each format is called where people read it. */
export const EXPORT_FORMAT_NAMES: Readonly<Record<ExportFormat, string>> = {
  moodle_xml: 'Moodle XML',
  gift: 'GIFT',
};

export interface QuizExport {
  filename: string;
  contentType: string;
  body: string;
  /** Per question, what the format could not hold. */
  notes: ExportedQuestion[];
}

/** The owner's quiz in `format`, with what each question loses in it. */
export async function exportQuiz(
  deps: DomainDeps,
  ownerId: string,
  ref: string,
  format: ExportFormat,
): Promise<QuizExport> {
  return buildExport(await loadOwnedQuiz(deps, ownerId, ref), format, deps.baseUrl);
}

/** `baseUrl`: the service's origin, with which records name their pictures (each export lists them as lost). */
export function buildExport(quiz: QuizWithQuestions, format: ExportFormat, baseUrl: string): QuizExport {
  const exporter = EXPORTERS[format];
  const questions = quiz.questions.map((question) => questionRecord(question, baseUrl));
  const { body, notes } = exporter.build({ title: quiz.title, questions });
  return { filename: `${quiz.slug}.${exporter.extension}`, contentType: exporter.contentType, body, notes };
}

/** Per question, what `format` cannot hold of the quiz (its questions as the tools return them). */
export function exportLosses(quiz: ExportSource, format: ExportFormat): ExportedQuestion[] {
  return EXPORTERS[format].build(quiz).notes;
}

/**
 * What a format loses, grouped by what is lost, each with the questions it concerns
 * ("GIFT: left out, GIFT has no ordering question: questions 4, 7."), short enough for a tool's note.
 */
export function exportNotesText(format: ExportFormat, notes: readonly ExportedQuestion[]): string {
  if (notes.length === 0) return `${EXPORT_FORMAT_NAMES[format]} holds every question.`;
  const byWhat = new Map<string, number[]>();
  for (const note of notes) {
    for (const lost of note.lost) {
      const what = note.left_out ? `left out, ${lost}` : `loses ${lost}`;
      byWhat.set(what, [...(byWhat.get(what) ?? []), note.n]);
    }
  }
  const parts = [...byWhat].map(
    ([what, ns]) => `${what}: question${ns.length === 1 ? '' : 's'} ${ns.join(', ')}`,
  );
  return `${EXPORT_FORMAT_NAMES[format]}: ${parts.join('; ')}.`;
}
