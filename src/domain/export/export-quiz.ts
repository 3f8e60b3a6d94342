import type { QuizWithQuestions } from '../../db/repositories';
import type { DomainDeps } from '../deps';
import { imageRecord, mediaOf } from '../images/image-ref';
import { questionRecord } from '../quiz-records';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { exportQti, type QtiExportNote } from './qti-export';
import type { QuestionRecord } from '../quiz-records';
import type { ExportedQuestion, ExportSource, QuizExporter } from './exported';
import { giftExporter } from './gift';
import { moodleXmlExporter } from './moodle-xml';

/** The formats a quiz's questions are exported in, each a signed link of get_quiz_links. */
export const EXPORT_FORMATS = ['moodle_xml', 'gift', 'qti'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The text formats; QTI is a zip package, written by qti-export.ts. */
const EXPORTERS: Readonly<Record<Exclude<ExportFormat, 'qti'>, QuizExporter>> = {
  moodle_xml: moodleXmlExporter,
  gift: giftExporter,
};

/** What each format is called where people read it. */
export const EXPORT_FORMAT_NAMES: Readonly<Record<ExportFormat, string>> = {
  moodle_xml: 'Moodle XML',
  gift: 'GIFT',
  qti: 'QTI 3.0 package',
};

export interface QuizExport {
  filename: string;
  contentType: string;
  body: string | Buffer;
  /** Per question, what the format could not hold. */
  notes: ExportedQuestion[];
}

const LEFT_OUT = 'the whole question: ';

/** QTI's notes in the shape the other formats' take: a question not written is left out. */
function qtiNotes(notes: readonly QtiExportNote[]): ExportedQuestion[] {
  return notes.map((note) => {
    const whole = note.lost.find((what) => what.startsWith(LEFT_OUT));
    return {
      n: note.n,
      question_id: note.question_id,
      type: note.type as QuestionRecord['type'],
      ...(whole ? { left_out: true as const, lost: [whole.slice(LEFT_OUT.length)] } : { lost: note.lost }),
    };
  });
}

/** The quiz as a QTI 3.0 package (a zip), with what each question loses in it. */
async function qtiExport(
  quiz: ExportSource & { quiz_id: string },
  slug: string,
  pictures?: ReadonlyMap<string, Buffer>,
): Promise<QuizExport> {
  const out = await exportQti(quiz, pictures);
  return {
    filename: `${slug}-qti.zip`,
    contentType: 'application/zip',
    body: out.bytes,
    notes: qtiNotes(out.notes),
  };
}

/** The owner's quiz in `format`, with what each question loses in it. */
export async function exportQuiz(
  deps: DomainDeps,
  ownerId: string,
  ref: string,
  format: ExportFormat,
): Promise<QuizExport> {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  const pictures = format === 'gift' ? undefined : await picturesOf(deps, quiz);
  return buildExport(quiz, format, deps.baseUrl, pictures);
}

/** The bytes of every picture the quiz's questions show, by the address the records give them. */
async function picturesOf(deps: DomainDeps, quiz: QuizWithQuestions): Promise<Map<string, Buffer>> {
  const pictures = new Map<string, Buffer>();
  for (const question of quiz.questions) {
    const media = mediaOf(question.media);
    for (const ref of [media?.image, ...(media?.options ?? [])]) {
      if (!ref) continue;
      const url = imageRecord(deps.baseUrl, ref).url;
      if (pictures.has(url)) continue;
      const stored = await deps.repos.images.read(ref.hash);
      if (stored) pictures.set(url, stored.bytes);
    }
  }
  return pictures;
}

/**
 * `baseUrl`: the service's origin, with which records name their pictures; `pictures`: their
 * bytes by address, for the formats that carry them (without, only the notes are right).
 */
export async function buildExport(
  quiz: QuizWithQuestions,
  format: ExportFormat,
  baseUrl: string,
  pictures?: ReadonlyMap<string, Buffer>,
): Promise<QuizExport> {
  const questions = quiz.questions.map((question) => questionRecord(question, baseUrl));
  if (format === 'qti')
    return qtiExport(
      { quiz_id: quiz.id, title: quiz.title, questions },
      quiz.slug,
      pictures ?? picturesNamed({ title: quiz.title, questions }),
    );
  const exporter = EXPORTERS[format];
  const { body, notes } = exporter.build({ title: quiz.title, questions, ...(pictures ? { pictures } : {}) });
  return { filename: `${quiz.slug}.${exporter.extension}`, contentType: exporter.contentType, body, notes };
}

/** Every picture the records name, without its bytes (for the notes alone). */
function picturesNamed(quiz: ExportSource): Map<string, Buffer> {
  const named = new Map<string, Buffer>();
  for (const question of quiz.questions) {
    const options = (question as { options?: Array<{ image?: { url: string } }> }).options ?? [];
    for (const image of [question.image, ...options.map((option) => option.image)]) {
      if (image) named.set(image.url, Buffer.alloc(0));
    }
  }
  return named;
}

/** Per question, what `format` cannot hold of the quiz (its questions as the tools return them). */
export async function exportLosses(
  quiz: ExportSource & { quiz_id: string },
  format: ExportFormat,
): Promise<ExportedQuestion[]> {
  // Only the notes are wanted: every picture counts as readable, as it is for the download.
  if (format === 'qti') return (await qtiExport(quiz, '', picturesNamed(quiz))).notes;
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
