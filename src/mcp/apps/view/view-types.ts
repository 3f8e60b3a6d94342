/**
 * The in-chat view's types: what the tools answer, read off their output schemas, and the face
 * each question type gives the view (its `view.ts`, beside its rules). Type-only imports, erased
 * by the bundler, so the view carries none of the server's code and cannot drift from the tools.
 */
import type { QuestionType } from '../../../domain/question-types/names';
import type { ToolOutput } from '../../tool';
import type { getQuizQuestionsTool } from '../../tools/get-quiz-questions';
import type { getResultsTool } from '../../tools/get-results';
import type { listQuizzesTool } from '../../tools/list-quizzes';

export type QuizPreview = ToolOutput<typeof getQuizQuestionsTool>;
export type PreviewQuestion = QuizPreview['questions'][number];
type AnyResults = ToolOutput<typeof getResultsTool>;
export type ResponseRow = Required<AnyResults['responses'][number]>;
/** The answer to today's arguments, every statistic and field: the only results the view draws. */
export type Results = Omit<AnyResults, 'questions' | 'item_analysis' | 'responses'> &
  Required<Pick<AnyResults, 'questions' | 'item_analysis'>> & { responses: ResponseRow[] };
export type ResultQuestion = Results['questions'][number];
export type QuizListItem = ToolOutput<typeof listQuizzesTool>['quizzes'][number];

/** One type's question in the preview, and its statistics in the results. */
export type PreviewOf<T extends QuestionType> = Extract<PreviewQuestion, { type: T }>;
export type ResultOf<T extends QuestionType> = Extract<ResultQuestion, { type: T }>;

/**
 * One item of a list under a question: `owned` is the owner's own text (an option, an item),
 * drawn typeset when the server sent it so; `text` follows it as plain text.
 */
export interface KeyItem {
  owned?: string;
  text?: string;
}

/** A line of a question's key in the preview: a note in words, or a list of the key's parts. */
export type KeyLine = { note: string } | { list: KeyItem[]; ordered?: boolean };

/** One bar: `best` marks a right answer; `owned` when its label is the owner's own text. */
export interface ChartRow {
  label: string;
  count: number;
  best: boolean;
  owned?: boolean;
}

/**
 * What a question type draws in the view, as data the view turns into elements (the faces are
 * browser code with no DOM of their own). One per type, in its folder's `view.ts`; the view's
 * table of them is faces.ts.
 */
export interface ViewFace<T extends QuestionType> {
  readonly type: T;
  /** Its key under the question's text in the preview, to a credential that may read it. */
  key(question: PreviewOf<T>): KeyLine[];
  /** Its answers in the results as bars, with how often each was given. */
  bars(question: ResultOf<T>): ChartRow[];
  /** A line of figures above its bars (a scale's mean and median), when it has one. */
  figures?(question: ResultOf<T>): string | null;
}
