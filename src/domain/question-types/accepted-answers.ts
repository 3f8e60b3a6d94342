import { matchesAcceptedAnswer } from '../answer-text';
import { LIMITS } from '../limits';

/**
 * A typed answer added to a list of accepted answers ("Accept this answer"), within the list's
 * bounds; shared by the types that compare typed answers with accepted ones (answer-text.ts).
 */
export function withAccepted(
  accepted: readonly string[],
  text: string,
): { accepted: string[] } | { problem: string } {
  if (matchesAcceptedAnswer(text, accepted)) return { problem: `“${text}” is already accepted` };
  if (accepted.length >= LIMITS.acceptedAnswersMax)
    return {
      problem: `it already accepts ${LIMITS.acceptedAnswersMax} answers, the most it takes: remove one in the editor first`,
    };
  return { accepted: [...accepted, text.trim()] };
}
