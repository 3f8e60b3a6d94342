import { DomainError } from '../errors';
import type { SettingsInput } from '../quiz-input';

/**
 * What a caller that may change quizzes but not read them (a credential with quizzes:write
 * alone, mcp/write-only-answer.ts) may not do: have respondents shown the answer key and the
 * explanations it cannot read itself. Changing an existing quiz so that it shows them is
 * refused, and nothing changes; a quiz it writes from scratch holds only what it sent.
 */
export function refuseShowingKeys(settings: SettingsInput | undefined): void {
  const shown = settings?.show_correct_answers;
  if (shown === undefined || shown === 'never') return;
  throw new DomainError(
    'scope_required',
    `show_correct_answers "${shown}" would show respondents the answer key and explanations, which this ` +
      'credential may not read: it lacks the scope quizzes:read. Nothing was changed. Leave ' +
      'show_correct_answers out (or send "never"), or connect again allowing quizzes:read, or have the ' +
      "owner choose it on the quiz's page.",
    [
      {
        field: 'settings.show_correct_answers',
        message: 'needs a credential with quizzes:read unless it is "never"',
      },
    ],
  );
}

/**
 * Why a question got a new id when such a caller sent a field of its key: said whether or not
 * the key sent equals the stored one, which the caller may not learn from the answer.
 */
export const WRITE_ONLY_RENEWAL =
  'a credential without quizzes:read that sends a key field always gets a new id, so its statistics start over';
