/**
 * The question types, in the order the tools describe them. This file imports nothing: the
 * in-chat view (mcp/apps/view, a browser bundle of its own) checks its per-type table against
 * the same union as the server. Each name has its module beside this file, listed in index.ts;
 * docs/architecture.md ("How to add a question type") names every place a new one must fill.
 */
export const QUESTION_TYPES = [
  'yes_no',
  'multiple_choice',
  'multiple_select',
  'short_text',
  'number',
  'ordering',
  'matching',
  'fill_in_blanks',
  'scale',
  'essay',
  'grid',
  'calculated',
] as const;

export type QuestionType = (typeof QUESTION_TYPES)[number];
