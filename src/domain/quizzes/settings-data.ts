import type { SettingsData } from '../../db/repositories';
import type { SettingsInput } from '../quiz-input';

const instantOrNull = (value: string | null): Date | null => (value === null ? null : new Date(value));

/** The settings columns a caller's snake_case settings change; absent keys stay as they are. */
export function settingsData(settings: SettingsInput | undefined): SettingsData {
  if (!settings) return {};
  const data: SettingsData = {};
  if (settings.accepting_responses !== undefined) data.acceptingResponses = settings.accepting_responses;
  if (settings.show_score_to_respondent !== undefined)
    data.showScoreToRespondent = settings.show_score_to_respondent;
  if (settings.pass_mark_percent !== undefined) data.passMarkPercent = settings.pass_mark_percent;
  if (settings.collect_name !== undefined) data.collectName = settings.collect_name;
  if (settings.collect_email !== undefined) data.collectEmail = settings.collect_email;
  if (settings.require_all_answers !== undefined) data.requireAllAnswers = settings.require_all_answers;
  if (settings.show_correct_answers !== undefined) data.showCorrectAnswers = settings.show_correct_answers;
  if (settings.allow_embedding !== undefined) data.allowEmbedding = settings.allow_embedding;
  Object.assign(data, takingData(settings));
  return data;
}

/** How the quiz is taken (domain/attempts/). */
function takingData(settings: SettingsInput): SettingsData {
  const data: SettingsData = {};
  if (settings.time_limit_minutes !== undefined) data.timeLimitMinutes = settings.time_limit_minutes;
  if (settings.opens_at !== undefined) data.opensAt = instantOrNull(settings.opens_at);
  if (settings.closes_at !== undefined) data.closesAt = instantOrNull(settings.closes_at);
  if (settings.shuffle_questions !== undefined) data.shuffleQuestions = settings.shuffle_questions;
  if (settings.shuffle_options !== undefined) data.shuffleOptions = settings.shuffle_options;
  if (settings.question_pool_size !== undefined) data.questionPoolSize = settings.question_pool_size;
  if (settings.max_attempts_per_email !== undefined)
    data.maxAttemptsPerEmail = settings.max_attempts_per_email;
  if (settings.language !== undefined) data.language = settings.language;
  return data;
}
