import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import { completeQuizRef } from './complete-quiz-ref';
import type { Completer, PromptContext, PromptDefinition } from './prompt';
import { QUIZ_URI_TEMPLATE } from './quiz-resource';

/** The most values one completion answer carries (the spec's limit). */
const MAX_VALUES = 100;

/**
 * `completion/complete` for the prompts' arguments and the quiz template's `quiz_id`. The SDK's
 * own handler calls a completer with the typed value only; this one is registered per request,
 * so each completer also gets the caller, and suggests only the caller's own quizzes.
 */
export function registerCompletions(
  server: McpServer,
  prompts: ReadonlyMap<string, PromptDefinition>,
  context: PromptContext,
): void {
  server.server.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument } = request.params;
    let completer: Completer | undefined;
    if (ref.type === 'ref/prompt') {
      const prompt = prompts.get(ref.name);
      if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${ref.name} not found`);
      completer = prompt.arguments[argument.name]?.complete;
    } else if (ref.uri === QUIZ_URI_TEMPLATE && argument.name === 'quiz_id') {
      completer = completeQuizRef;
    }
    const values = completer ? await completer(argument.value, context) : [];
    return {
      completion: {
        values: values.slice(0, MAX_VALUES),
        total: values.length,
        hasMore: values.length > MAX_VALUES,
      },
    };
  });
}
