import type { ToolRegistry } from './registry';
import { ALL_TOOLSETS, TOOLSETS, toolsetsQuery, type ToolsetName } from './toolsets';

/**
 * What an assistant reads once, in `initialize` (2025 era) and `server/discover` (2026-07-28):
 * how the tools fit together, every family of them, and the connector URL of each toolset.
 * Kept short, since every conversation pays for it.
 */
const HOW_THE_TOOLS_FIT = [
  'Quiz service: make quizzes, publish them on a public page, and read their results.',
  '- quiz_id takes the quiz ID, its slug or its title: no need to list quizzes first when the person names one.',
  '- create_quiz makes a private draft; publish_quiz makes it public and returns the link to share.',
  '- Confirm with the person before destructive calls: delete_quiz needs confirm: true, and changing a published quiz needs confirm_edit_published: true.',
  "- edit_questions changes single questions; update_quiz replaces every question: send each kept question's question_id to keep its id and statistics.",
  '- Start an account of results (get_results) with the summary (responses, average, pass rate), then the questions most often missed.',
];

export function serverInstructions(baseUrl: string, registry: ToolRegistry): string {
  const endpoint = `${baseUrl}/api/mcp`;
  const toolsets = (Object.keys(TOOLSETS) as ToolsetName[]).map((name) => {
    const tools = registry.entries.filter((entry) => entry.definition.toolset === name);
    const names = tools.map((entry) => entry.definition.name).join(', ');
    return `  ${name}: ${TOOLSETS[name]} (${names}): ${endpoint}${toolsetsQuery([name])}`;
  });
  return [
    ...HOW_THE_TOOLS_FIT,
    '- Toolsets list more tools; any connection may call any tool:',
    ...toolsets,
    `  ${ALL_TOOLSETS}: ${endpoint}${toolsetsQuery([ALL_TOOLSETS])}`,
  ].join('\n');
}
