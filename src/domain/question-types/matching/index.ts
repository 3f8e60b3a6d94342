import { z } from 'zod';
import { LIMITS } from '../../limits';
import { NO_ANSWER, type Choice, type QuestionTypeDefinition } from '../definition';
import { indexOfId, listFits, type OpaqueListSpec } from '../opaque-ids';
import { noPointsPossible } from '../warnings';
import type { StatisticsOf } from '../shared-fields';
import type { matchingFields } from './fields';

/**
 * Prompts to match: each pair's prompt gets a choice among every match (the pairs' matches,
 * each label once, then the distractors), all under ids of the attempt (opaque-ids.ts), so
 * neither the order shown nor the ids pair them. `pointsPerPair` for each prompt matched right.
 */
export interface MatchingQuestion {
  id: string;
  type: 'matching';
  pairs: ReadonlyArray<{ prompt: string; match: string }>;
  /** Matches that belong to no prompt (distractors). */
  extraMatches: readonly string[];
  pointsPerPair: number;
}

/** Its fields as the tools return them. */
export interface MatchingRecord {
  pairs: Array<{ prompt: string; match: string }>;
  extra_matches: Array<{ label: string }>;
  points_per_pair: number;
}

/** Between a prompt and its match, and between pairs, as results, CSV and the review show them. */
export const PAIR_ARROW = ' → ';
export const PAIR_SEPARATOR = '; ';
/** A prompt left without a match, in the answer string. */
const NO_MATCH = '—';

/**
 * Its answer as stored: per prompt in the quiz's order, the match chosen (its index among
 * `matchLabels`, or null); the prompts' and the chosen matches' labels then, which re-marking
 * after a key fix reads; and the orders the attempt showed, by index.
 */
const valueSchema = z.object({
  matches: z.array(z.number().int().nullable()),
  prompts: z.array(z.string()),
  labels: z.array(z.string().nullable()),
  shown: z.object({ prompts: z.array(z.number().int()), matches: z.array(z.number().int()) }),
});

/** The running figures count an answer under its matches: "m:" and the match indexes ("" for none). */
const STAT_PREFIX = 'm:';

/** Every match a prompt may be given, each label once: the pairs' in order, then the distractors. */
export function matchLabels(question: Pick<MatchingQuestion, 'pairs' | 'extraMatches'>): string[] {
  return [...new Set([...question.pairs.map((pair) => pair.match), ...question.extraMatches])];
}

/** Each prompt's right match, as an index among matchLabels. */
const rightIndexes = (question: Pick<MatchingQuestion, 'pairs' | 'extraMatches'>) => {
  const labels = matchLabels(question);
  return question.pairs.map((pair) => labels.indexOf(pair.match));
};

const promptsSpec = (question: Pick<MatchingQuestion, 'pairs'>): OpaqueListSpec => ({
  count: question.pairs.length,
  neverInOrder: false,
  labels: question.pairs.map((pair) => pair.prompt),
  idField: 'prompt_id',
});

// Shuffled freely: any order of the matches beside any order of the prompts tells nothing.
const matchesSpec = (question: Pick<MatchingQuestion, 'pairs' | 'extraMatches'>): OpaqueListSpec => {
  const labels = matchLabels(question);
  return { count: labels.length, neverInOrder: false, labels, idField: 'match_id' };
};

/**
 * Each prompt's chosen match label as the key reads it now: a stored answer is placed by its
 * prompts' labels (an edit may have reordered the pairs), else by position; an answer just
 * given, by its match indexes.
 */
function chosenLabels(key: Omit<MatchingQuestion, 'id'>, answer: Choice): Array<string | null> | null {
  if (!('matches' in answer)) return null;
  const labels = matchLabels(key);
  if (answer.labels && answer.prompts) {
    const { prompts, labels: chosen } = answer;
    return key.pairs.map((pair, index) => {
      const at = prompts.indexOf(pair.prompt);
      const place = at >= 0 ? at : prompts.length === key.pairs.length ? index : -1;
      return place >= 0 ? (chosen[place] ?? null) : null;
    });
  }
  if (answer.matches.length !== key.pairs.length) return null;
  return answer.matches.map((index) => (index === null ? null : (labels[index] ?? null)));
}

const rightPairs = (key: Omit<MatchingQuestion, 'id'>, answer: Choice): number => {
  const chosen = chosenLabels(key, answer);
  if (!chosen) return 0;
  return key.pairs.filter((pair, index) => chosen[index] === pair.match).length;
};

/** Per pair: how many matched its prompt right, and the wrong match given it most often. */
export interface PairFigure {
  prompt: string;
  right_match: string;
  right_share: number | null;
  common_wrong_match: string | null;
  common_wrong_count: number;
}

/** The per-pair figures and whole-answer count from the answers' counts by matches (flat in responses). */
export function pairFigures(
  question: Pick<MatchingQuestion, 'pairs' | 'extraMatches'>,
  counts: ReadonlyMap<string, number>,
): { right_count: number; pairs: PairFigure[] } {
  const labels = matchLabels(question);
  const right = rightIndexes(question);
  const n = question.pairs.length;
  const given = Array.from({ length: n }, () => new Map<number, number>());
  let answered = 0;
  let wholeRight = 0;
  for (const [key, count] of counts) {
    if (!key.startsWith(STAT_PREFIX)) continue;
    const matches = key
      .slice(STAT_PREFIX.length)
      .split(',')
      .map((part) => (part === '' ? null : Number(part)));
    if (matches.length !== n) continue;
    answered += count;
    if (matches.every((index, prompt) => index === right[prompt])) wholeRight += count;
    matches.forEach((index, prompt) => {
      if (index !== null) given[prompt]!.set(index, (given[prompt]!.get(index) ?? 0) + count);
    });
  }
  const pairs = question.pairs.map((pair, prompt) => {
    let wrong: [number, number] | null = null;
    for (const [index, count] of given[prompt]!) {
      if (index !== right[prompt] && count > 0 && (!wrong || count > wrong[1])) wrong = [index, count];
    }
    return {
      prompt: pair.prompt,
      right_match: pair.match,
      right_share: answered === 0 ? null : (given[prompt]!.get(right[prompt]!) ?? 0) / answered,
      common_wrong_match: wrong ? (labels[wrong[0]] ?? null) : null,
      common_wrong_count: wrong ? wrong[1] : 0,
    };
  });
  return { right_count: wholeRight, pairs };
}

const pairsText = (prompts: readonly string[], chosen: ReadonlyArray<string | null>) =>
  prompts.map((prompt, index) => `${prompt}${PAIR_ARROW}${chosen[index] ?? NO_MATCH}`).join(PAIR_SEPARATOR);

const MATCHES_HELP =
  'a matching question takes matches: an object giving each prompt_id of the attempt a match_id of the attempt, or null to leave it unmatched.';

/** Labels repeated within one list, each named at its second place. */
function repeats(
  labels: readonly string[],
  at: (index: number) => string,
  first: (index: number) => string,
): Array<{ place: string; of: string; line: number }> {
  const seen = new Map<string, number>();
  const found: Array<{ place: string; of: string; line: number }> = [];
  labels.forEach((label, index) => {
    const earlier = seen.get(label);
    if (earlier !== undefined) found.push({ place: at(index), of: first(earlier), line: earlier + 1 });
    else seen.set(label, index);
  });
  return found;
}

export const matching: QuestionTypeDefinition<
  MatchingQuestion,
  MatchingRecord,
  z.infer<typeof valueSchema>
> = {
  name: 'matching',
  summary: 'matching',
  // The source's grade is the whole question's, split evenly among its pairs.
  importing: {
    shape: 'pairs',
    build: (source, score) => {
      const pairs = source.pairs?.list ?? [];
      return {
        pairs: pairs.map((pair) => ({ prompt: pair.prompt, match: pair.match })),
        extra_matches: (source.pairs?.extra ?? []).map((label) => ({ label })),
        points_per_pair: score(pairs.length === 0 ? 0 : source.grade / pairs.length),
      };
    },
  },
  exporting: (record) => ({
    shape: 'pairs',
    grade: record.points_per_pair * record.pairs.length,
    answers: [],
    pairs: {
      list: record.pairs.map((pair) => ({ prompt: pair.prompt, match: pair.match })),
      extra: record.extra_matches.map((extra) => extra.label),
    },
    unsaid: [],
  }),
  guide: [
    `The respondent matches prompts: \`pairs\` holds ${LIMITS.matchingPairsMin}-${LIMITS.matchingPairsMax} {prompt, match}, each prompt with its right match.`,
    "Each prompt gets a choice among all the matches, shuffled: the pairs' matches (two prompts may share one, shown",
    `once) and up to ${LIMITS.extraMatchesMax} \`extra_matches\` ({label}) that fit no prompt. Each prompt matched right earns`,
    '`points_per_pair` (default 1). Prompts must differ. A quiz with a matching question is taken through an attempt:',
    'it lists the prompts (prompt_id) and the matches (match_id), and the answer is `matches`, an object giving each',
    'prompt_id a match_id, or null.',
  ],
  statisticsGuide:
    'give `right_count` (every pair right) and, per pair, `right_share` and `common_wrong_match`',
  reference: {
    fields: `\`pairs\`: ${LIMITS.matchingPairsMin}-${LIMITS.matchingPairsMax} of \`{prompt, match}\`; \`extra_matches\` (up to ${LIMITS.extraMatchesMax} of \`{label}\`, matching no prompt); \`points_per_pair\` (default 1)`,
    marked:
      '`points_per_pair` for each prompt given its right match. Every prompt chooses among all the matches, shuffled; always taken through an attempt.',
    answer: "`matches`: an object giving each of the attempt's `prompt_id`s a `match_id`, or null",
    limit: {
      bound: `${LIMITS.matchingPairsMin}-${LIMITS.matchingPairsMax} pairs`,
      then: `up to ${LIMITS.extraMatchesMax} extra matches`,
    },
  },
  keyHint:
    'a matching question lists each prompt with its right match, e.g. pairs: [{"prompt": "Paris", "match": "France"}, {"prompt": "Rome", "match": "Italy"}]',
  takes: ['pairs', 'extra_matches', 'points_per_pair'],
  checkInput: (input, issue) => {
    const pairs = input.pairs ?? [];
    if (pairs.length < LIMITS.matchingPairsMin) {
      issue(
        'pairs',
        `a matching question needs at least ${LIMITS.matchingPairsMin} pairs of {prompt, match} (got ${pairs.length})`,
        'too_few',
        { min: LIMITS.matchingPairsMin, got: pairs.length },
      );
    }
    for (const found of repeats(
      pairs.map((pair) => pair.prompt),
      (index) => `pairs[${index}]`,
      (index) => `pairs[${index}]`,
    )) {
      issue(
        'pairs',
        `${found.place} repeats the prompt of ${found.of}: each prompt needs its own text`,
        'repeated',
        { line: found.line },
      );
    }
    const extras = (input.extra_matches ?? []).map((extra) => extra.label);
    const matches = new Set(pairs.map((pair) => pair.match));
    extras.forEach((label, index) => {
      if (matches.has(label)) {
        const pair = pairs.findIndex((candidate) => candidate.match === label);
        issue(
          'extra_matches',
          `extra_matches[${index}] is the match of pairs[${pair}]: an extra match must fit no prompt`,
          'repeated',
          { line: pair + 1 },
        );
      }
    });
    for (const found of repeats(
      extras,
      (index) => `extra_matches[${index}]`,
      (index) => `extra_matches[${index}]`,
    )) {
      issue('extra_matches', `${found.place} repeats ${found.of}: give each its own label`, 'repeated', {
        line: found.line,
      });
    }
  },
  fromInput: (input) => ({
    type: 'matching',
    pairs: (input.pairs ?? []).map((pair) => ({ prompt: pair.prompt, match: pair.match })),
    extraMatches: (input.extra_matches ?? []).map((extra) => extra.label),
    pointsPerPair: input.points_per_pair ?? 1,
  }),
  keySchema: z.object({
    pairs: z.array(z.object({ prompt: z.string(), match: z.string() })),
    extraMatches: z.array(z.string()),
    pointsPerPair: z.number().int(),
  }),
  toStored: (key) => ({
    pairs: key.pairs.map((pair) => ({ prompt: pair.prompt, match: pair.match })),
    extraMatches: [...key.extraMatches],
    pointsPerPair: key.pointsPerPair,
  }),
  record: (key) => ({
    pairs: key.pairs.map((pair) => ({ prompt: pair.prompt, match: pair.match })),
    extra_matches: key.extraMatches.map((label) => ({ label })),
    points_per_pair: key.pointsPerPair,
  }),
  warnings: (record) =>
    record.points_per_pair > 0 ? [] : noPointsPossible('points_per_pair', 'points_per_pair is not above 0'),
  maxPoints: (key) => Math.max(key.pointsPerPair, 0) * key.pairs.length,
  points: (key, answer) => Math.max(key.pointsPerPair, 0) * rightPairs(key, answer),
  // The pairs decide the marks; the distractors change the choices offered.
  answerKey: (key) => JSON.stringify([key.type, key.pairs, key.extraMatches, key.pointsPerPair]),
  // Answers are placed by their prompts' labels, so a fixed match re-marks them; a changed count cannot.
  answersCarryOver: (previous, next) => previous.pairs.length === next.pairs.length,
  shufflesOptions: false,
  opaqueLists: (question) => ({ prompts: promptsSpec(question), matches: matchesSpec(question) }),
  answerField: {
    name: 'matches',
    schema: z
      .record(
        z.string().max(64, { error: 'matches is keyed by prompt_ids: the strings the attempt listed' }),
        z
          .string({ error: 'each prompt_id takes a match_id the attempt listed, or null' })
          .max(64, { error: 'each prompt_id takes a match_id the attempt listed, or null' })
          .nullable(),
        { error: 'matches must be an object giving each prompt_id a match_id, or null' },
      )
      .refine((matches) => Object.keys(matches).length <= LIMITS.matchingPairsMax, {
        error: `matches takes at most ${LIMITS.matchingPairsMax} prompt_ids`,
      }),
    help: 'matches (matching)',
    description: "matching: each of the attempt's prompt_ids with a match_id, or null.",
    jsonSchema: {
      type: 'object',
      additionalProperties: { type: ['string', 'null'] },
      maxProperties: LIMITS.matchingPairsMax,
    },
  },
  parseAnswer: (question, answer, lists) => {
    const prompts = lists?.prompts;
    const matches = lists?.matches;
    if (!listFits(prompts, promptsSpec(question)) || !listFits(matches, matchesSpec(question))) {
      return {
        field: 'matches',
        message:
          'a matching question is answered through an attempt: start one and send the prompt_ids and match_ids it lists.',
      };
    }
    const given = answer.matches;
    if (given === null || typeof given !== 'object' || Array.isArray(given)) {
      return { field: 'matches', message: MATCHES_HELP };
    }
    const chosen: Array<number | null> = question.pairs.map(() => null);
    for (const [promptId, matchId] of Object.entries(given)) {
      const prompt = indexOfId(prompts, promptId);
      if (prompt < 0) {
        return {
          field: 'matches',
          message: `"${promptId.slice(0, 64)}" is not a prompt_id of this attempt: ${MATCHES_HELP}`,
        };
      }
      if (matchId === null) continue;
      const match = indexOfId(matches, matchId);
      if (match < 0)
        return { field: 'matches', message: `prompt_id "${promptId}" takes a match_id of this attempt` };
      chosen[prompt] = match;
    }
    if (chosen.every((match) => match === null)) {
      return {
        field: 'matches',
        message: 'matches gives no prompt a match: match at least one, or leave the question out.',
      };
    }
    return { matches: chosen, shownPairs: { prompts: [...prompts.shown], matches: [...matches.shown] } };
  },
  // The form sends "<prompt_id>:<match_id>" per prompt given a match (respondent/render-quiz-page.ts).
  formAnswer: (value) => {
    const matches: Record<string, string | null> = {};
    for (const entry of value.split(',').filter(Boolean)) {
      const [promptId = '', matchId = ''] = entry.split(':');
      // A prompt given twice is no value the page sends: it names no prompt, which is refused.
      matches[promptId in matches ? '' : promptId] = matchId;
    }
    return { matches };
  },
  valueSchema,
  storedAnswer: (question, choice) => {
    if (!('matches' in choice)) return undefined;
    const labels = matchLabels(question);
    return {
      matches: [...choice.matches],
      prompts: question.pairs.map((pair) => pair.prompt),
      labels: choice.matches.map((index) => (index === null ? null : (labels[index] ?? null))),
      shown: {
        prompts: [...(choice.shownPairs?.prompts ?? [])],
        matches: [...(choice.shownPairs?.matches ?? [])],
      },
    };
  },
  statKeys: (value) => ({
    statKey: `${STAT_PREFIX}${value.matches.map((index) => (index === null ? '' : String(index))).join(',')}`,
    statValue: null,
    statNum: null,
  }),
  choiceOf: (value) => ({
    matches: value.matches,
    prompts: value.prompts,
    labels: value.labels,
    shownPairs: value.shown,
  }),
  answerText: (value) => pairsText(value.prompts, value.labels),
  typedValue: (value) => ({ choices: null, matches: value ? [...value.labels] : null }),
  columns: (value) => ({ ...NO_ANSWER, text: pairsText(value.prompts, value.labels) }),
  rightAnswers: (question) => [
    pairsText(
      question.pairs.map((pair) => pair.prompt),
      question.pairs.map((pair) => pair.match),
    ),
  ],
  analysisKeys: () => null,
  // Counted by the matches chosen (its running figures); per pair from those counts.
  statistics: (question, { counts, round }): StatisticsOf<typeof matchingFields> => {
    const { right_count, pairs } = pairFigures(question, counts);
    return { right_count, pairs: pairs.map((pair) => ({ ...pair, right_share: round(pair.right_share) })) };
  },
  commonAnswers: 'none',
  answerIsTyped: false,
};
