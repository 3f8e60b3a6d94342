import type { CsvCell } from '../csv';
import type { DomainDeps } from '../deps';
import { gradesOf, type GradeRecord } from '../grading/grade-answers';
import { gradingStateOf } from '../grading/grading-state';
import { csvColumnsOf } from '../question-types';
import { answerCells } from '../stored-answer';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';

export interface ExportResponsesOptions {
  /** Responses read per query: memory stays bounded however many responses a quiz has. */
  batchSize?: number;
}

export interface ResponsesExport {
  quiz: { quiz_id: string; slug: string; title: string };
  /**
   * submitted_at, name, email, score, max_score, percent, passed, then one column per question
   * (a type read in parts, a grid, has one per part: "Q1. text [Row]");
   * then, added at the end so that readers of the first columns keep working: grading_status,
   * and per question its points, grade state and comment (GRADE_COLUMNS).
   */
  header: string[];
  /** The data rows, oldest first, read from the database a batch at a time. */
  rows(): AsyncGenerator<CsvCell[]>;
}

export const FIXED_COLUMNS = [
  'submitted_at',
  'name',
  'email',
  'score',
  'max_score',
  'percent',
  'passed',
] as const;

/** The columns each question adds after the answers, in this order, e.g. "Q1 points". */
export const GRADE_COLUMNS = ['points', 'grade', 'comment'] as const;

/** An answer's grade state in the CSV: marked by its type's rule ("auto"), or where a person's grade stands. */
const stateCell = (gradeState: string | null) => gradeState ?? 'auto';

const round2 = (value: number | null): number | null =>
  value === null ? null : Math.round(value * 100) / 100;

/**
 * The owner's responses as table rows for CSV. Questions are replaced wholesale when a
 * quiz is edited (new ids), and responses keep the answers they gave: so the columns are
 * the current questions in order, then any earlier questions that still have answers,
 * marked "(earlier version)". Each response fills the columns it answered.
 */
export async function exportResponses(
  deps: DomainDeps,
  ownerId: string,
  quizId: string,
  options: ExportResponsesOptions = {},
): Promise<ResponsesExport> {
  const { responses } = deps.repos;
  const batchSize = options.batchSize ?? 500;
  const quiz = await loadOwnedQuiz(deps, ownerId, quizId);
  const currentIds = quiz.questions.map((question) => question.id);
  const earlier = await responses.earlierQuestions(quiz.id, currentIds);

  const columns = [
    ...quiz.questions.map((question, index) => ({
      id: question.id,
      label: `Q${index + 1}. ${question.text}`,
      tag: `Q${index + 1}`,
      parts: csvColumnsOf(question),
    })),
    ...earlier.map((question) => {
      const label = `${question.questionText || 'Question'} (earlier version)`;
      return { id: question.questionId, label, tag: label, parts: null };
    }),
  ];
  const columnIndex = new Map(columns.map((column, index) => [column.id, index]));
  // Where each question's answer cells start: one cell, or one per part.
  const answerAt: number[] = [];
  let width = 0;
  for (const column of columns) {
    answerAt.push(width);
    width += column.parts?.length ?? 1;
  }

  async function* rows(): AsyncGenerator<CsvCell[]> {
    let after: { at: Date; id: string } | undefined;
    for (;;) {
      const batch = await responses.oldestFirst(quiz.id, batchSize, after);
      // The comments of the batch's answers graded by a person (or overridden), in one read.
      const graded = batch.flatMap((response) =>
        response.answers.filter((answer) => answer.gradeState !== null).map((answer) => answer.id),
      );
      const grades = graded.length > 0 ? await gradesOf(deps, graded) : new Map<string, GradeRecord>();
      for (const response of batch) {
        const answers: CsvCell[] = Array.from({ length: width }, () => null);
        const marks: CsvCell[] = columns.flatMap(() => GRADE_COLUMNS.map(() => null));
        for (const answer of response.answers) {
          const index = columnIndex.get(answer.questionId);
          if (index === undefined) continue;
          const cells = answerCells(answer, columns[index]!.parts?.length ?? null);
          cells.forEach((cell, part) => (answers[answerAt[index]! + part] = cell));
          const at = index * GRADE_COLUMNS.length;
          marks[at] = answer.points;
          marks[at + 1] = stateCell(answer.gradeState);
          marks[at + 2] = grades.get(answer.id)?.feedback ?? null;
        }
        yield [
          response.submittedAt.toISOString(),
          response.respondentName,
          response.respondentEmail,
          response.score,
          response.maxScore,
          round2(response.percent),
          response.passed,
          ...answers,
          gradingStateOf(response) ?? 'final',
          ...marks,
        ];
      }
      const last = batch[batch.length - 1];
      if (batch.length < batchSize || !last) return;
      after = { at: last.submittedAt, id: last.id };
    }
  }

  return {
    quiz: { quiz_id: quiz.id, slug: quiz.slug, title: quiz.title },
    header: [
      ...FIXED_COLUMNS,
      ...columns.flatMap((column) =>
        column.parts ? column.parts.map((part) => `${column.label} [${part}]`) : [column.label],
      ),
      'grading_status',
      ...columns.flatMap((column) => GRADE_COLUMNS.map((name) => `${column.tag} ${name}`)),
    ],
    rows,
  };
}
