import type { SettingsData } from '../../db/repositories';
import type { SettingsInput } from '../quiz-input';

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
  return data;
}
