import type { ToolDefinition } from '../tool';
import { closeQuizTool, reopenQuizTool } from './close-quiz';
import { createQuizTool } from './create-quiz';
import { deleteQuizTool } from './delete-quiz';
import { editQuestionsTool } from './edit-questions';
import { duplicateQuizTool } from './duplicate-quiz';
import { getQuizLinksTool } from './get-quiz-links';
import { getQuizQuestionsTool } from './get-quiz-questions';
import { getQuizSettingsTool } from './get-quiz-settings';
import { getResultsTool } from './get-results';
import { getAnswersToGradeTool, gradeAnswersTool } from './grading';
import { importQuestionsTool } from './import-questions';
import { listQuizzesTool } from './list-quizzes';
import { publishQuizTool } from './publish-quiz';
import { updateQuizTool } from './update-quiz';

/**
 * Every tool of the public contract, in the order `tools/list` shows them (the README's Tools
 * section). Adding a tool is its file and one line here.
 */
export const TOOLS: readonly ToolDefinition[] = [
  listQuizzesTool,
  createQuizTool,
  getQuizQuestionsTool,
  getQuizSettingsTool,
  updateQuizTool,
  editQuestionsTool,
  publishQuizTool,
  getResultsTool,
  getAnswersToGradeTool,
  gradeAnswersTool,
  deleteQuizTool,
  closeQuizTool,
  reopenQuizTool,
  duplicateQuizTool,
  getQuizLinksTool,
  importQuestionsTool,
];
