import type { CsvCell } from '../csv';
import type { DomainDeps } from '../deps';
import { answerText } from '../stored-answer';
import { loadOwnedQuiz } from './get-quiz';

export interface ExportResponsesOptions {
  /** Responses read per query: memory stays bounded however many responses a quiz has. */
  batchSize?: number;
}

export interface ResponsesExport {
  quiz: { quiz_id: string; slug: string; title: string };
  /** submitted_at, name, email, score, max_score, percent, passed, then one column per question. */
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
    })),
    ...earlier.map((question) => ({
      id: question.questionId,
      label: `${question.questionText || 'Question'} (earlier version)`,
    })),
  ];
  const columnIndex = new Map(columns.map((column, index) => [column.id, index]));

  async function* rows(): AsyncGenerator<CsvCell[]> {
    let after: { at: Date; id: string } | undefined;
    for (;;) {
      const batch = await responses.oldestFirst(quiz.id, batchSize, after);
      for (const response of batch) {
        const answers: CsvCell[] = columns.map(() => null);
        for (const answer of response.answers) {
          const index = columnIndex.get(answer.questionId);
          if (index !== undefined) answers[index] = answerText(answer);
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
        ];
      }
      const last = batch[batch.length - 1];
      if (batch.length < batchSize || !last) return;
      after = { at: last.submittedAt, id: last.id };
    }
  }

  return {
    quiz: { quiz_id: quiz.id, slug: quiz.slug, title: quiz.title },
    header: [...FIXED_COLUMNS, ...columns.map((column) => column.label)],
    rows,
  };
}
