import { z } from 'zod';
import { LIMITS } from '../../limits';
import {
  inputField,
  integerIn,
  opaqueList,
  statCount,
  statShare,
  trimmed,
  unlisted,
  type TypeFields,
} from '../shared-fields';

/** A matching question's fields in the tools' input, in its record and in its statistics. */
export const matchingFields = {
  input: {
    pairs: inputField(
      z
        .array(
          z.strictObject({
            prompt: unlisted(trimmed('prompt', LIMITS.optionLabelMax)).describe('Asked.'),
            match: unlisted(trimmed('match', LIMITS.optionLabelMax)).describe('Its answer.'),
          }),
          { error: 'pairs must be an array of { prompt, match }' },
        )
        .max(LIMITS.matchingPairsMax, { error: `a question takes at most ${LIMITS.matchingPairsMax} pairs` })
        .optional(),
      (takers) => `${takers}: ${LIMITS.matchingPairsMin}-${LIMITS.matchingPairsMax}.`,
    ),
    extra_matches: inputField(
      z
        .array(
          z.strictObject({ label: unlisted(trimmed('label', LIMITS.optionLabelMax)).describe('Shown.') }),
          { error: 'extra_matches must be an array of { label }' },
        )
        // Checked, not published: the skill and the API reference state the bound.
        .refine((extras) => extras.length <= LIMITS.extraMatchesMax, {
          error: `a question takes at most ${LIMITS.extraMatchesMax} extra_matches`,
        })
        .optional(),
      (takers) => `${takers}: distractors.`,
    ),
    points_per_pair: inputField(
      integerIn('points_per_pair').min(0, { error: 'points_per_pair must be at least 0' }).optional(),
      (takers) => `${takers}: per right pair (default 1).`,
    ),
  },
  record: {
    type: z.literal('matching'),
    pairs: z
      .array(z.object({ prompt: z.string(), match: z.string() }))
      .describe('Each prompt with its right match.'),
    extra_matches: z.array(z.object({ label: z.string() })).describe('Matches that fit no prompt.'),
    points_per_pair: z.number().int(),
  },
  statistics: {
    type: z.literal('matching'),
    right_count: statCount.describe('Answers with every pair right.'),
    pairs: z
      .array(
        z.object({
          prompt: z.string(),
          right_match: z.string(),
          right_share: statShare.nullable().describe('Share of answers matching this prompt right.'),
          common_wrong_match: z.string().nullable().describe('The wrong match given it most often.'),
          common_wrong_count: statCount,
        }),
      )
      .describe('Per pair, in order.'),
  },
  attempt: {
    prompts: opaqueList(
      'prompt_id',
      'The prompts to match, in the order to show; `matches` is keyed by their prompt_ids.',
    ),
    matches: opaqueList(
      'match_id',
      "Every match a prompt may take, in the order to show; each prompt_id takes one's match_id or null.",
    ),
  },
  answer: {
    matches: inputField(
      z.array(z.string().nullable()).nullable().optional(),
      (takers) => `${takers}: per pair in order, the match chosen; null: none.`,
    ),
  },
} satisfies TypeFields<'matching'>;
