import type { Prisma } from '../../generated/sqlite/client';
import type { QuestionInput, SettingsInput } from '../quiz-input';

/** Nested-create data for a question list, positions and option order as given. */
export function questionsCreateData(questions: QuestionInput[]): Prisma.QuestionCreateWithoutQuizInput[] {
  return questions.map((question, position) =>
    question.type === 'yes_no'
      ? { position, type: 'yes_no', text: question.text, points: question.points }
      : {
          position,
          type: 'multiple_choice',
          text: question.text,
          options: {
            create: question.options.map((option, index) => ({
              position: index,
              label: option.label,
              score: option.score,
            })),
          },
        },
  );
}

/** Column data for the settings a caller supplied; absent keys stay as they are. */
export function settingsData(settings: SettingsInput | undefined): Prisma.QuizUpdateInput {
  if (!settings) return {};
  const data: Prisma.QuizUpdateInput = {};
  if (settings.accepting_responses !== undefined) data.acceptingResponses = settings.accepting_responses;
  if (settings.show_score_to_respondent !== undefined)
    data.showScoreToRespondent = settings.show_score_to_respondent;
  if (settings.pass_mark_percent !== undefined) data.passMarkPercent = settings.pass_mark_percent;
  if (settings.collect_name !== undefined) data.collectName = settings.collect_name;
  if (settings.collect_email !== undefined) data.collectEmail = settings.collect_email;
  if (settings.require_all_answers !== undefined) data.requireAllAnswers = settings.require_all_answers;
  return data;
}
