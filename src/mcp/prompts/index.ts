import type { PromptDefinition } from '../prompt';
import { explainResultsPrompt } from './explain-results';
import { gradeWithRubricPrompt } from './grade-with-rubric';
import { importMyQuestionBankPrompt } from './import-my-question-bank';
import { quizFromMaterialPrompt } from './quiz-from-material';
import { reviewQuizBeforePublishingPrompt } from './review-quiz-before-publishing';

/** Every prompt, in the order `prompts/list` shows them. Adding one is its file and one line here. */
export const PROMPTS: readonly PromptDefinition[] = [
  quizFromMaterialPrompt,
  reviewQuizBeforePublishingPrompt,
  explainResultsPrompt,
  importMyQuestionBankPrompt,
  gradeWithRubricPrompt,
];
