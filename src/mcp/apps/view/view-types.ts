/**
 * The in-chat view's types: what the tools answer, read off their output schemas. Type-only
 * imports, erased by the bundler, so the view carries none of the server's code and cannot
 * drift from the tools. What a question type's face is: face/view-face.ts.
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
