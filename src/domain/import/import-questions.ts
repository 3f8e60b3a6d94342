import { randomInt } from 'node:crypto';
import type { QuizWithQuestions } from '../../db/repositories';
import { checkTakingSettings, DEFAULT_TAKING, mergeSettings } from '../attempts/taking-rules';
import { nowOf, type DomainDeps } from '../deps';
import { DomainError, invalidInput, isDomainError } from '../errors';
import { LIMITS } from '../limits';
import type { QuestionInput } from '../quiz-input';
import { questionRecord, quizSummary } from '../quiz-records';
import { settingsColumns } from '../quiz-settings';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { questionsKeepingIds, toQuestionData } from '../quizzes/question-data';
import { titleKey } from '../owned/resolve-quiz';
import { newSlug } from '../slug';
import { readUpload } from '../uploads/uploads';
import type { ImageWrite } from '../../db/repositories';
import { quotaCheck, rowMedia, type ResolvedQuestion } from '../images/resolve-images';
import { assemble, readBank, type ImportedQuestion } from './assemble';
import { decodeBankPictures } from './bank-images';
import type { BankFormat, ImportFormat, SourceBank } from './bank';
import { readPool } from './read-pool';
import type { BankSource } from './read-job';

/** The most text one call takes; larger banks go in parts, or as an uploaded file (uploads/). */
export const IMPORT_TEXT_MAX = 200_000;
/** How many questions with something to say one page of the preview lists. */
export const PREVIEW_PAGE_SIZE = 25;
const PREVIEW_TEXT_MAX = 60;
const PREVIEW_NOTES_MAX = 3;
const SLUG_ATTEMPTS = 5;

export interface ImportQuestionsInput {
  /** The bank as pasted text; or `uploadId`, a file sent through an upload link. */
  text?: string | undefined;
  uploadId?: string | undefined;
  format?: ImportFormat | undefined;
  /** A new draft quiz with this title (split: numbered "Title (1 of 3)"). */
  title?: string | undefined;
  /** Or append to this draft quiz (ID, slug or title). */
  quizRef?: string | undefined;
  dryRun?: boolean | undefined;
  split?: boolean | undefined;
  skipUnusable?: boolean | undefined;
  /** The preview's page, 1-based. */
  page?: number | undefined;
}

/** One question of the preview: what it becomes, what it loses, what cannot be read. */
export interface PreviewItem {
  n: number;
  at: string;
  from: string;
  type: string | null;
  text: string;
  lost?: string[];
  /** How the import rewrote its texts. */
  changed?: string[];
  regraded?: string[];
  problems?: string[];
}

/** What an import finds, for the tool and the web page alike: summarised whole, listed by page. */
export interface ImportPreview {
  format: BankFormat;
  question_count: number;
  importable: number;
  not_importable: number;
  /** Importable questions by the type they become. */
  types: Record<string, number>;
  /** The scale of the scoring rule this bank takes: 1, 10 or 100 points per grade. */
  points_per_grade: number;
  /** How many questions lose each kind of thing. */
  lost: Record<string, number>;
  /** How many questions' texts the import rewrote in each way; absent when none. */
  changed?: Record<string, number>;
  regraded: number;
  /** How many quizzes the importable questions need at LIMITS.questionsMax each. */
  quizzes_needed: number;
  /** The questions with something to say (lost, regraded, problems), one page of them. */
  notes: PreviewItem[];
  page: number;
  pages: number;
  file_problems?: string[];
}

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function previewItem(question: ImportedQuestion): PreviewItem {
  const listed = (list: string[]) =>
    list.length > PREVIEW_NOTES_MAX
      ? [
          ...list.slice(0, PREVIEW_NOTES_MAX).map((entry) => shorten(entry, 160)),
          `and ${list.length - PREVIEW_NOTES_MAX} more`,
        ]
      : list.map((entry) => shorten(entry, 160));
  return {
    n: question.n,
    at: question.at,
    from: question.from,
    type: question.input?.type ?? null,
    text: shorten(question.text.replace(/\s+/g, ' '), PREVIEW_TEXT_MAX),
    ...(question.lost.length > 0 ? { lost: listed(question.lost) } : {}),
    ...(question.changed.length > 0 ? { changed: listed(question.changed) } : {}),
    ...(question.regraded.length > 0 ? { regraded: listed(question.regraded) } : {}),
    ...(question.problems.length > 0 ? { problems: listed(question.problems) } : {}),
  };
}

export function previewOf(
  format: BankFormat,
  scale: number,
  questions: readonly ImportedQuestion[],
  fileProblems: readonly string[],
  page = 1,
): ImportPreview {
  const importable = questions.filter((question) => question.input);
  const types: Record<string, number> = {};
  for (const question of importable) types[question.input!.type] = (types[question.input!.type] ?? 0) + 1;
  const lost: Record<string, number> = {};
  for (const question of questions) for (const kind of question.lost) lost[kind] = (lost[kind] ?? 0) + 1;
  const changed: Record<string, number> = {};
  for (const question of questions) {
    for (const kind of question.changed) changed[kind] = (changed[kind] ?? 0) + 1;
  }
  const noted = questions.filter(
    (question) =>
      question.lost.length + question.changed.length + question.regraded.length + question.problems.length >
      0,
  );
  const pages = Math.max(1, Math.ceil(noted.length / PREVIEW_PAGE_SIZE));
  const shown = Math.min(Math.max(1, page), pages);
  return {
    format,
    question_count: questions.length,
    importable: importable.length,
    not_importable: questions.length - importable.length,
    types,
    points_per_grade: scale,
    lost,
    ...(Object.keys(changed).length > 0 ? { changed } : {}),
    regraded: questions.filter((question) => question.regraded.length > 0).length,
    quizzes_needed: Math.ceil(importable.length / LIMITS.questionsMax),
    notes: noted.slice((shown - 1) * PREVIEW_PAGE_SIZE, shown * PREVIEW_PAGE_SIZE).map(previewItem),
    page: shown,
    pages,
    ...(fileProblems.length > 0
      ? { file_problems: fileProblems.slice(0, 10).map((entry) => shorten(entry, 160)) }
      : {}),
  };
}

const refuse = (field: string, message: string) => invalidInput([{ field, message }], 'Nothing was imported');

/** Reads a bank and previews it, without storing anything. */
export function previewImport(
  input: { text: string; field?: string } & Pick<ImportQuestionsInput, 'format' | 'page'>,
) {
  return previewBank(readBank(input.text, input.format, input.field), input.page);
}

/** A bank already read (text or package) with our types applied, and its preview. */
export function previewBank(bank: SourceBank, page?: number) {
  const { scale, questions } = assemble(bank);
  return { questions, preview: previewOf(bank.format, scale, questions, bank.problems, page) };
}

/**
 * The same with the pictures the bank carries decoded (nothing stored), so the preview lists the
 * ones that cannot be used; the decoded pictures come back for the write.
 */
export async function previewWithPictures(
  images: Pick<DomainDeps['repos']['images'], 'known'>,
  bank: SourceBank,
  page?: number,
) {
  const { scale, questions } = assemble(bank);
  const pictures = await decodeBankPictures(images, bank, questions);
  return { questions, pictures, preview: previewOf(bank.format, scale, questions, bank.problems, page) };
}

function message(preview: ImportPreview, stored: boolean, quizzes: number): string {
  const parts = [
    stored
      ? `Imported ${preview.importable} of ${preview.question_count} questions into ${quizzes} draft quiz${quizzes === 1 ? '' : 'zes'}.`
      : `Dry run: nothing stored. ${preview.importable} of ${preview.question_count} questions can be imported.`,
  ];
  if (preview.not_importable > 0) {
    parts.push(
      stored
        ? `${preview.not_importable} could not be and were left out (see notes).`
        : `${preview.not_importable} cannot be (see notes): fix them in the source, or import the rest with skip_unusable: true.`,
    );
  }
  if (!stored && preview.quizzes_needed > 1) {
    parts.push(
      `A quiz takes at most ${LIMITS.questionsMax} questions: send split: true with a title to make ${preview.quizzes_needed} quizzes.`,
    );
  }
  if (preview.regraded > 0)
    parts.push(`${preview.regraded} questions' scores were rounded by the scoring rule (see notes).`);
  if (preview.pages > 1)
    parts.push(`Notes page ${preview.page} of ${preview.pages}: send page for the others.`);
  return parts.join(' ');
}

/**
 * Imports a question bank into a new draft quiz (or several, split), or appends it to a draft;
 * with `dryRun` only previews it. Everything is checked before anything is stored, and what is
 * stored is stored in one transaction.
 */
export async function importQuestions(deps: DomainDeps, ownerId: string, input: ImportQuestionsInput) {
  // Pictures are decoded on a dry run too, so the preview lists those that cannot be used; stored only below.
  const { questions, pictures, preview } = await previewSource(
    deps,
    await bankSource(deps, ownerId, input),
    input.format,
    input.page,
  );
  if (input.title !== undefined && input.quizRef !== undefined) {
    throw refuse('quiz_id', 'send either title (a new draft quiz) or quiz_id (a draft to add to), not both');
  }
  if (input.dryRun) return { ...preview, dry_run: true, quizzes: [], message: message(preview, false, 0) };

  const importable = questions.filter((question) => question.input);
  if (importable.length === 0) {
    throw refuse(
      'text',
      `none of the ${questions.length} questions can be imported: run with dry_run: true to see why`,
    );
  }
  if (importable.length < questions.length && !input.skipUnusable) {
    const first = questions.find((question) => !question.input)!;
    throw refuse(
      'skip_unusable',
      `${questions.length - importable.length} of the ${questions.length} questions cannot be imported (the first: ${shorten(first.problems[0] ?? first.at, 160)}): fix them in the source, or send skip_unusable: true to import the other ${importable.length}`,
    );
  }
  const resolved = importable.map((question) => ({ ...question.input!, media: question.media ?? null }));
  const data = resolved.map((question) => toQuestionData(question));
  const images = quotaCheck(deps, pictures.blobs);
  if (input.quizRef !== undefined) {
    const quiz = await appendTo(deps, ownerId, input.quizRef, resolved, images);
    const summary = { ...quizSummary(quiz), question_count: quiz.questions.length };
    return { ...preview, dry_run: false, quizzes: [summary], message: message(preview, true, 1) };
  }
  if (input.title === undefined) {
    throw refuse('title', 'is required to import into a new draft quiz (or send quiz_id to add to a draft)');
  }
  const parts = Math.ceil(data.length / LIMITS.questionsMax);
  if (parts > 1 && !input.split) {
    throw refuse(
      'split',
      `the bank has ${data.length} questions and a quiz takes at most ${LIMITS.questionsMax}: send split: true to make ${parts} quizzes, or import fewer`,
    );
  }
  const title = input.title;
  const titles = Array.from({ length: parts }, (_, index) =>
    parts === 1 ? title : `${shorten(title, LIMITS.titleMax - 12)} (${index + 1} of ${parts})`,
  );
  const settings = settingsColumns(undefined);
  const chunks = titles.map((_, index) =>
    data.slice(index * LIMITS.questionsMax, (index + 1) * LIMITS.questionsMax),
  );
  for (const chunk of chunks) {
    checkTakingSettings(mergeSettings(DEFAULT_TAKING, settings), undefined, chunk.length, nowOf(deps));
  }
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt += 1) {
    const created = await deps.repos.quizzes.createMany(
      titles.map((quizTitle, index) => ({
        ownerId,
        title: quizTitle,
        titleKey: titleKey(quizTitle),
        slug: newSlug(quizTitle, randomInt),
        description: null,
        settings,
        questions: chunks[index]!,
        images,
      })),
    );
    if (created) {
      const quizzes = created.map((quiz) => ({
        ...quizSummary(quiz),
        question_count: quiz.questions.length,
      }));
      return { ...preview, dry_run: false, quizzes, message: message(preview, true, quizzes.length) };
    }
  }
  throw new Error(`could not find free slugs for "${title}" after ${SLUG_ATTEMPTS} attempts`);
}

export type { BankSource } from './read-job';

/** The bank's source: the pasted text, or the owner's uploaded file. */
async function bankSource(
  deps: DomainDeps,
  ownerId: string,
  input: Pick<ImportQuestionsInput, 'text' | 'uploadId'>,
): Promise<BankSource> {
  if (input.text !== undefined && input.uploadId !== undefined) {
    throw refuse('upload_id', 'send either text (pasted) or upload_id (an uploaded file), not both');
  }
  if (input.uploadId !== undefined) return { file: await readUpload(deps, ownerId, input.uploadId) };
  if (input.text === undefined) {
    throw refuse(
      'text',
      'is required: paste the bank, or send upload_id for a file sent through an upload link',
    );
  }
  return { text: input.text };
}

/** The bank read in the import pool's worker thread, off the serving thread (read-pool.ts). */
const sourceBank = (source: BankSource, format?: ImportFormat) => readPool().read({ source, format });

/** Errors of the storage a read asks (pictures already stored): the storage's, not the file's. */
const storageFailures = new WeakSet<object>();

/**
 * The one way every door reads a bank (import_questions, the dashboard's form and preview): a
 * refusal passes as it is, and anything else a reader throws (a file no reader foresaw) is the
 * same refusal as an unreadable file, not an internal error. The log gets the exception's name
 * and stack at warn, not its message, which may quote the file.
 */
async function readingBank<T>(
  deps: Pick<DomainDeps, 'logger'>,
  source: BankSource,
  read: () => Promise<T>,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isDomainError(error) || (error instanceof Object && storageFailures.has(error))) throw error;
    const field = 'text' in source ? 'text' : 'upload_id';
    const thrown = error instanceof Error ? error : new Error(typeof error);
    deps.logger?.warn(
      {
        field,
        reader: {
          type: thrown.name,
          stack: (thrown.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)),
        },
      },
      'an import could not be read: a reader threw',
    );
    throw refuse(
      field,
      'has something in it that could not be read: check that it is whole GIFT, Aiken, Moodle XML or CSV, or a whole QTI package (export it again from where it came from), or import it in parts to find the question that stops it',
    );
  }
}

/**
 * A bank read, with our types applied, and previewed with the pictures it carries decoded
 * (nothing stored), so the preview lists the ones that cannot be used; the pictures come back
 * for the write.
 */
export function previewSource(
  deps: Pick<DomainDeps, 'repos' | 'logger'>,
  source: BankSource,
  format?: ImportFormat,
  page?: number,
) {
  const known: Pick<DomainDeps['repos']['images'], 'known'> = {
    known: (hashes) =>
      deps.repos.images.known(hashes).catch((error: unknown) => {
        if (error instanceof Object) storageFailures.add(error);
        throw error;
      }),
  };
  return readingBank(deps, source, async () => {
    const { bank, scale, questions } = await sourceBank(source, format);
    const pictures = await decodeBankPictures(known, bank, questions);
    return { questions, pictures, preview: previewOf(bank.format, scale, questions, bank.problems, page) };
  });
}

/** The same without decoding pictures: whether a file can be read at all, before it is kept. */
export function checkSource(deps: Pick<DomainDeps, 'logger'>, source: BankSource, format?: ImportFormat) {
  return readingBank(deps, source, async () => {
    const { bank, scale, questions } = await sourceBank(source, format);
    return { questions, preview: previewOf(bank.format, scale, questions, bank.problems) };
  });
}

/** Appends under the quiz's lock, so a concurrent edit is neither lost nor overrun past the bound. */
async function appendTo(
  deps: DomainDeps,
  ownerId: string,
  ref: string,
  inputs: readonly ResolvedQuestion[],
  images: ImageWrite,
): Promise<QuizWithQuestions> {
  const { id } = await loadOwnedQuiz(deps, ownerId, ref);
  const quiz = await deps.repos.quizzes.update(
    ownerId,
    id,
    {
      settings: {},
      images,
      questionsFrom: (current) => {
        if (current.status !== 'draft') {
          throw refuse(
            'quiz_id',
            `"${current.title}" is published: import into a draft, or into a new quiz with title`,
          );
        }
        const total = current.questions.length + inputs.length;
        if (total > LIMITS.questionsMax) {
          throw refuse(
            'quiz_id',
            `"${current.title}" has ${current.questions.length} questions and ${inputs.length} more would make ${total}, past ${LIMITS.questionsMax}: import into a new quiz with title (and split: true)`,
          );
        }
        // The questions already there keep their ids (and statistics) and pictures: sent back unchanged.
        const kept = current.questions.map((question) => ({
          ...(questionRecord(question) as QuestionInput),
          question_id: question.id,
          media: rowMedia(question),
        }));
        return {
          questions: questionsKeepingIds(current.questions, [...kept, ...inputs]),
          keepVersion: false,
        };
      },
    },
    () => undefined,
  );
  if (!quiz) throw new DomainError('quiz_not_found', `No quiz "${ref}" to add to.`);
  return quiz;
}
