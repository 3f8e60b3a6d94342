import { hasRichParts } from '../../domain/rich-text';
import { loadOwnedQuiz } from '../../domain/owned/load-owned-quiz';
import { richText } from '../../web/rich-text';
import type { ToolContext } from '../tool';

/**
 * The owner's texts of a view tool's answer typeset for the MCP App view, which draws text only
 * and cannot carry the typesetter within its size budget: each text with a formula or code,
 * mapped to the HTML the public pages show for it (escaped text, code, MathML without styles).
 * It travels in the result's `_meta`, beside the answer that the model reads with its source
 * untouched; an answer without such a text carries nothing.
 */
export const RICH_TEXT_META_KEY = 'quiz-service/rich-text';

/** The fields that hold the owner's texts; what respondents typed is never typeset. */
const OWNER_TEXT_FIELDS = new Set([
  'title',
  'description',
  'text',
  'label',
  'explanation',
  'right_item',
  'common_wrong_item',
  'scale_labels',
]);

/** Every owner's text in an answer, however deep. */
function ownerTexts(value: unknown, into: Set<string>, owned = false): Set<string> {
  if (typeof value === 'string') {
    if (owned) into.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) ownerTexts(item, into, owned);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) ownerTexts(item, into, OWNER_TEXT_FIELDS.has(key));
  }
  return into;
}

/** The quiz an answer is about: its `quiz_id`, or its `quiz`'s. */
function quizIdOf(result: Record<string, unknown>): string | null {
  if (typeof result.quiz_id === 'string') return result.quiz_id;
  const quiz = result.quiz as { quiz_id?: unknown } | undefined;
  return typeof quiz?.quiz_id === 'string' ? quiz.quiz_id : null;
}

/** The `_meta` of a view tool's result: the typeset texts, or undefined when none has a formula or code. */
export async function richTextMeta(
  result: Record<string, unknown>,
  context: ToolContext,
): Promise<Record<string, unknown> | undefined> {
  // `$` counts here only as a maybe: the quiz's setting decides, read only when it matters.
  const candidates = [...ownerTexts(result, new Set())].filter((text) =>
    hasRichParts(text, { dollars: true }),
  );
  const quizId = quizIdOf(result);
  if (candidates.length === 0 || quizId === null) return undefined;
  const needsSetting = candidates.some((text) => !hasRichParts(text, { dollars: false }));
  const dollars = needsSetting
    ? (await loadOwnedQuiz(context.deps, context.principal.userId, quizId)).mathDollars
    : false;
  const typeset: Record<string, string> = {};
  for (const text of candidates) {
    if (hasRichParts(text, { dollars })) typeset[text] = richText(text, { dollars }).toString();
  }
  return Object.keys(typeset).length > 0 ? { [RICH_TEXT_META_KEY]: typeset } : undefined;
}
