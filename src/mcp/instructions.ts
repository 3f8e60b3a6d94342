/**
 * What an assistant reads once, in `initialize` (2025 era) and `server/discover` (2026-07-28):
 * how the tools fit together. Kept short, since every conversation pays for it.
 */
export const SERVER_INSTRUCTIONS = [
  'Quiz service: make quizzes, publish them on a public page, and read their results.',
  '- quiz_id takes the quiz ID, its slug or its title: no need to list quizzes first when the person names one.',
  '- create_quiz makes a private draft; publish_quiz makes it public and returns the link to share.',
  '- Confirm with the person before destructive calls: delete_quiz needs confirm: true, and update_quiz on a published quiz needs confirm_edit_published: true.',
  "- update_quiz replaces every question: send each kept question's question_id to keep its id and statistics.",
  '- Start an account of results with the summary (responses, average, pass rate), then the questions most often missed.',
].join('\n');
