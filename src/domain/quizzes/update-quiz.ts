import { WRITE_TRANSACTION_OPTIONS, type DomainDeps } from '../deps';
import { DomainError } from '../errors';
import type { QuestionInput, SettingsInput } from '../quiz-input';
import { questionsInclude, quizWithQuestionsRecord } from '../quiz-records';
import { quizNotFound, resolveQuiz, titleKey } from './resolve-quiz';
import { questionsCreateData, settingsData } from './quiz-writes';

export interface UpdateQuizInput {
  ref: string;
  questions?: QuestionInput[] | undefined;
  title?: string | undefined;
  settings?: SettingsInput | undefined;
  confirmEditPublished?: boolean | undefined;
}

/**
 * Changes a quiz. `questions`, when given, replace the current ones wholesale (new
 * question IDs); past responses keep their own answers and scores.
 * A published quiz changes only with `confirm_edit_published: true`; without it nothing changes.
 */
export async function updateQuiz(deps: DomainDeps, ownerId: string, input: UpdateQuizInput) {
  const { db, baseUrl } = deps;
  if (input.questions === undefined && input.title === undefined && input.settings === undefined) {
    throw new DomainError(
      'invalid_input',
      'Nothing to change: pass questions (they replace the current ones), title, or settings.',
      [{ field: 'questions', message: 'is required unless title or settings is given' }],
    );
  }
  const { id } = await resolveQuiz(deps, ownerId, input.ref);
  const quiz = await db.$transaction(async (tx) => {
    // Touch the row first: this takes its write lock, so concurrent edits of one quiz run
    // one after another and each replaces the whole question set (never a mix of two).
    const locked = await tx.quiz.updateMany({
      where: { id, ownerId },
      data: { version: { increment: input.questions ? 1 : 0 } },
    });
    if (locked.count === 0) throw quizNotFound(input.ref);
    const current = await tx.quiz.findUniqueOrThrow({ where: { id }, select: { status: true, title: true } });
    if (current.status === 'published') {
      if (input.confirmEditPublished !== true) {
        throw new DomainError(
          'confirmation_required',
          `"${current.title}" is published, so people may already have answered it. Nothing was changed. ` +
            'To change it anyway, call update_quiz again with confirm_edit_published: true; past responses keep their scores.',
        );
      }
      if (input.questions?.length === 0) {
        throw new DomainError(
          'invalid_state',
          `"${current.title}" is published and must keep at least one question. Nothing was changed.`,
          [{ field: 'questions', message: 'a published quiz needs at least one question' }],
        );
      }
    }
    return tx.quiz.update({
      where: { id },
      data: {
        ...(input.title !== undefined ? { title: input.title, titleKey: titleKey(input.title) } : {}),
        ...settingsData(input.settings),
        ...(input.questions !== undefined
          ? { questions: { deleteMany: {}, create: questionsCreateData(input.questions) } }
          : {}),
      },
      include: questionsInclude,
    });
  }, WRITE_TRANSACTION_OPTIONS);
  return quizWithQuestionsRecord(baseUrl, quiz);
}
