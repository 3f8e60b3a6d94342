import {
  ResourceNotFoundError,
  ResourceTemplate,
  type McpServer,
  type TextResourceContents,
} from '@modelcontextprotocol/server';
import { isDomainError } from '../domain/errors';
import { unstorableReason } from '../domain/text-integrity';
import { getQuizQuestions } from '../domain/quizzes/get-quiz';
import type { PromptContext } from './prompt';

/** A quiz as a resource: `quiz://{quiz_id}`, where quiz_id is, as in the tools, its ID, slug or title. */
export const QUIZ_URI_TEMPLATE = 'quiz://{quiz_id}';
const QUIZ_MIME_TYPE = 'application/json';

type QuizRecord = Awaited<ReturnType<typeof getQuizQuestions>>;

/** The resource contents of a quiz: the same document get_quiz_questions answers. */
export function quizDocument(quiz: QuizRecord): TextResourceContents {
  return { uri: `quiz://${quiz.quiz_id}`, mimeType: QUIZ_MIME_TYPE, text: JSON.stringify(quiz) };
}

/**
 * Registers the template. Reading it reads the caller's own quiz; any other reference (another
 * user's quiz, one that does not exist, a credential without the read scope) is the same
 * resource-not-found error, so a read reveals nothing about quizzes that are not the caller's.
 * `resources/list` does not enumerate quizzes: list_quizzes pages them.
 */
export function registerQuizResource(server: McpServer, { deps, principal }: PromptContext): void {
  server.registerResource(
    'quiz',
    new ResourceTemplate(QUIZ_URI_TEMPLATE, { list: undefined }),
    {
      title: 'A quiz and its questions',
      description: 'One of your quizzes, as get_quiz_questions returns it. quiz_id: its ID, slug or title.',
      mimeType: QUIZ_MIME_TYPE,
    },
    async (uri, variables) => {
      const ref = referenceOf(variables.quiz_id);
      if (ref === undefined || !principal.scopes.has('quizzes:read'))
        throw new ResourceNotFoundError(uri.href);
      try {
        return { contents: [quizDocument(await getQuizQuestions(deps, principal.userId, ref))] };
      } catch (error) {
        if (isDomainError(error) && error.code === 'quiz_not_found')
          throw new ResourceNotFoundError(uri.href);
        throw error;
      }
    },
  );
}

/**
 * The quiz reference in a matched URI: one value, percent-decoded (a title may hold spaces). A
 * reference no quiz can have (a NUL, a lone surrogate) names none: PostgreSQL would refuse the
 * query itself.
 */
function referenceOf(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return undefined;
  }
  return unstorableReason(decoded) === undefined ? decoded : undefined;
}
