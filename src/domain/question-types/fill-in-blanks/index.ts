import { z } from 'zod';
import { comparableText, matchesAcceptedAnswer, TEXT_ANSWER_MAX } from '../../answer-text';
import { LIMITS } from '../../limits';
import { NO_ANSWER, type QuestionTypeDefinition } from '../definition';
import { bestAnswers } from '../importing';
import { indexOfId, listFits, type OpaqueListSpec, type OpaqueLists } from '../opaque-ids';
import { noPointsPossible } from '../warnings';
import { withAccepted } from '../accepted-answers';
import type { StatisticsOf } from '../shared-fields';
import type { fillInBlanksFields } from './fields';

/**
 * A text with numbered blanks, `[[1]]`, `[[2]]`…: each blank is typed (marked against its
 * accepted answers as short_text marks them) or chosen from a list (its options, shown under
 * ids of the attempt, opaque-ids.ts). Each blank earns its own points.
 */
export interface BlankKey {
  /** A typed blank's right answers; empty for a choice-list blank. */
  acceptedAnswers: readonly string[];
  /** A choice-list blank's labels, in the quiz's order; null for a typed blank. */
  options: readonly string[] | null;
  correctOption: number | null;
  points: number;
}

export interface FillInBlanksQuestion {
  id: string;
  type: 'fill_in_blanks';
  blanks: readonly BlankKey[];
}

/**
 * A blank as answered: the text typed, or the option chosen by canonical index with the label
 * it had (re-marking after options are reordered places it by label); null when left empty.
 */
export type BlankAnswer = { text: string } | { option: number; label?: string | undefined };

const blankValue = z.union([
  z.object({ text: z.string() }),
  z.object({ option: z.number().int(), label: z.string() }),
]);

/** Its answer as stored: each blank in order, null when left empty. */
const valueSchema = z.object({ blanks: z.array(blankValue.nullable()) });

/** Its fields as the tools return them: a typed blank's answers, or a list's options and right one. */
export interface BlankRecord {
  accepted_answers?: string[];
  options?: string[];
  correct_option?: number;
  points: number;
}

export interface FillInBlanksRecord {
  blanks: BlankRecord[];
}

/** A blank's marker in the text: `[[n]]`, no braces, so TeX's `{}` in the same text never meets it. */
export const BLANK_MARKER = /\[\[(\d{1,3})\]\]/g;

/** The blank numbers in a text, in the order they appear. */
export function blankMarkers(text: string): number[] {
  return [...text.matchAll(BLANK_MARKER)].map((match) => Number(match[1]));
}

/** Between the blanks of an answer as results, CSV and the review show it ("1: Paris; 2: 1889"). */
export const BLANKS_SEPARATOR = '; ';

/** The attempt's list of a choice-list blank's options, by its number (1 first). */
export const blankListName = (number: number) => `blank_${number}_options`;

const optionsSpec = (options: readonly string[]): OpaqueListSpec => ({
  count: options.length,
  neverInOrder: false,
  labels: options,
  idField: 'option_id',
});

/** The running figures count an answer under its blanks: "b:" and each blank's key. */
const STAT_PREFIX = 'b:';

/** One blank's key among the running figures: "" empty, "t" and the text as compared, "o" and the index. */
function blankStatKey(answer: BlankAnswer | null): string {
  if (answer === null) return '';
  return 'text' in answer ? `t${comparableText(answer.text)}` : `o${answer.option}`;
}

/** A choice-list answer's option as the key counts it now: by its label, else by the index it had. */
function optionNow(blank: BlankKey, answer: { option: number; label?: string | undefined }): number {
  const byLabel = answer.label === undefined ? -1 : (blank.options ?? []).indexOf(answer.label);
  return byLabel >= 0 ? byLabel : answer.option;
}

function blankRight(blank: BlankKey, answer: BlankAnswer | null | undefined): boolean {
  if (!answer) return false;
  if (blank.options !== null) return 'option' in answer && optionNow(blank, answer) === blank.correctOption;
  return (
    'text' in answer &&
    blank.acceptedAnswers.length > 0 &&
    matchesAcceptedAnswer(answer.text, blank.acceptedAnswers)
  );
}

const blankShown = (blank: BlankKey | undefined, answer: BlankAnswer): string =>
  'text' in answer ? answer.text : (answer.label ?? blank?.options?.[answer.option] ?? '');

/** "1: Paris; 3: 1889": each blank answered, by its number. */
function answerString(blanks: ReadonlyArray<BlankAnswer | null>, key?: readonly BlankKey[]): string {
  return blanks
    .flatMap((answer, index) => (answer ? [`${index + 1}: ${blankShown(key?.[index], answer)}`] : []))
    .join(BLANKS_SEPARATOR);
}

/** Per blank: the share of answers right, and the wrong answer given most often. */
export interface BlankFigure {
  blank: number;
  right_share: number | null;
  common_wrong_answer: string | null;
  common_wrong_count: number;
}

/** The per-blank figures from the answers' counts by key (flat in the number of responses). */
export function blankFigures(
  question: Pick<FillInBlanksQuestion, 'blanks'>,
  counts: ReadonlyMap<string, number>,
): BlankFigure[] {
  const n = question.blanks.length;
  const perBlank = Array.from({ length: n }, () => new Map<string, number>());
  let answered = 0;
  for (const [key, count] of counts) {
    if (!key.startsWith(STAT_PREFIX)) continue;
    let parts: unknown;
    try {
      parts = JSON.parse(key.slice(STAT_PREFIX.length));
    } catch {
      continue;
    }
    if (!Array.isArray(parts) || parts.length !== n) continue;
    answered += count;
    parts.forEach((part, index) => {
      const map = perBlank[index]!;
      map.set(String(part), (map.get(String(part)) ?? 0) + count);
    });
  }
  return question.blanks.map((blank, index) => {
    let right = 0;
    let wrong: [string, number] | null = null;
    for (const [part, count] of perBlank[index]!) {
      const answer: BlankAnswer | null =
        part === ''
          ? null
          : part.startsWith('t')
            ? { text: part.slice(1) }
            : { option: Number(part.slice(1)) };
      if (blankRight(blank, answer)) right += count;
      else if (answer && count > 0 && (!wrong || count > wrong[1]))
        wrong = [blankShown(blank, answer), count];
    }
    return {
      blank: index + 1,
      right_share: answered === 0 ? null : right / answered,
      common_wrong_answer: wrong ? wrong[0] : null,
      common_wrong_count: wrong ? wrong[1] : 0,
    };
  });
}

const BLANKS_HELP = (count: number) =>
  `a fill_in_blanks question takes blanks: a list of ${count} entries in blank order, each the text typed, the option_id chosen (a choice-list blank) or null.`;

/** A blank's typed text, checked as a short_text answer is. */
function typedBlank(value: string, number: number) {
  const text = value.trim();
  if (text.length > TEXT_ANSWER_MAX) {
    return {
      field: 'blanks' as const,
      message: `Blank ${number}: use at most ${TEXT_ANSWER_MAX} characters (got ${text.length}).`,
      code: 'too_long' as const,
      params: { max: TEXT_ANSWER_MAX },
    };
  }
  return text === '' ? null : { text };
}

export const fillInBlanks: QuestionTypeDefinition<
  FillInBlanksQuestion,
  FillInBlanksRecord,
  z.infer<typeof valueSchema>
> = {
  name: 'fill_in_blanks',
  summary: 'fill_in_blanks ([[1]] in text)',
  // Each blank is worth its own grade: a typed one accepts its answers worth the most, a choice
  // list's right option is the one worth the most; answers worth part of it are named as lost.
  importing: {
    shape: 'blanks',
    build: (source, score, lose) => ({
      blanks: (source.blanks ?? []).map((blank) => {
        const { best, answers } = bestAnswers({ grade: blank.grade, answers: blank.answers }, lose);
        const points = score((blank.grade * best) / 100);
        if (!blank.choice) return { accepted_answers: answers.map((answer) => answer.text), points };
        const right = blank.answers.findIndex((answer) => best > 0 && answer.fraction === best);
        return {
          options: blank.answers.map((answer) => answer.text),
          correct_option: Math.max(0, right),
          points,
        };
      }),
    }),
  },
  exporting: (record) => ({
    shape: 'blanks',
    grade: record.blanks.reduce((sum, blank) => sum + Math.max(0, blank.points), 0),
    answers: [],
    blanks: record.blanks.map((blank) =>
      blank.options
        ? {
            grade: blank.points,
            choice: true,
            answers: blank.options.map((text, index) => ({
              text,
              fraction: index === blank.correct_option ? 100 : 0,
            })),
          }
        : {
            grade: blank.points,
            choice: false,
            answers: (blank.accepted_answers ?? []).map((text) => ({ text, fraction: 100 })),
          },
    ),
    unsaid: [],
  }),
  guide: [
    `Write the blanks into \`text\` as [[1]], [[2]]… (1-${LIMITS.blanksMax}, each once), and give \`blanks\`: one entry per`,
    'number, in order (blanks[0] is [[1]]). An entry is either typed, with `accepted_answers` (compared as',
    `any typed answer is: case and spacing ignored, accents count), or a choice list, with \`options\` (${LIMITS.blankOptionsMin}-${LIMITS.blankOptionsMax}`,
    'labels) and `correct_option`, the 0-based index of the right one. Each blank earns its `points` (default 1).',
    'A marker without an entry, or an entry without a marker, is refused. A quiz with a choice-list blank is',
    'taken through an attempt, which lists its options with their option_ids; the answer is `blanks`: the',
    'text typed or the option_id chosen, per blank in order, null for one left empty.',
  ],
  statisticsGuide: 'give, per blank, `right_share` and `common_wrong_answer`',
  reference: {
    fields: `\`blanks\`: one per \`[[n]]\` marker of the text, each \`accepted_answers\` or \`options\` with \`correct_option\` (0-based), and \`points\` (default 1)`,
    marked:
      'Each blank earns its points: a typed one when it equals an accepted answer as any typed answer is compared (accents count), a choice list when the right option is chosen.',
    answer: "`blanks`: per blank in order, the text typed, the attempt's `option_id` chosen, or null",
    limit: {
      bound: `1-${LIMITS.blanksMax} blanks`,
      then: `each choice list ${LIMITS.blankOptionsMin}-${LIMITS.blankOptionsMax} options`,
    },
  },
  keyHint:
    'a fill_in_blanks question marks [[1]], [[2]] in text and keys each in blanks, e.g. blanks: [{"accepted_answers": ["Paris"]}, {"options": ["1789", "1889"], "correct_option": 1}]',
  takes: ['blanks'],
  checkInput: (input, issue) => {
    const blanks = input.blanks ?? [];
    const markers = blankMarkers(input.text ?? '');
    if (markers.length === 0) {
      issue(
        'blanks',
        'a fill_in_blanks question needs at least one blank: write [[1]] in text where it goes',
        'too_few',
        { min: 1, got: 0 },
      );
    }
    const seen = new Set<number>();
    for (const marker of markers) {
      if (seen.has(marker)) {
        issue(
          'blanks',
          `text has the marker [[${marker}]] more than once: give each blank its own number`,
          'repeated',
          {
            line: marker,
          },
        );
      } else if (marker < 1 || marker > LIMITS.blanksMax) {
        issue(
          'blanks',
          `text has the marker [[${marker}]]: blanks are numbered 1 to ${LIMITS.blanksMax}`,
          'too_large',
          {
            max: LIMITS.blanksMax,
          },
        );
      } else if (marker > blanks.length) {
        issue(
          'blanks',
          `text has the marker [[${marker}]] but blanks has no entry for it (blanks[${marker - 1}]): add one, or remove the marker`,
          'blank_without_entry',
          { blank: marker },
        );
      }
      seen.add(marker);
    }
    blanks.forEach((blank, index) => {
      const number = index + 1;
      const at = `blanks[${index}]`;
      if (!seen.has(number)) {
        issue(
          'blanks',
          `${at} is blank ${number}, but text has no [[${number}]] marker: write it where the blank goes, or remove the entry`,
          'blank_without_marker',
          { blank: number },
        );
      }
      const options = blank.options;
      if (options !== undefined && blank.accepted_answers !== undefined) {
        issue(
          'blanks',
          `${at}: give accepted_answers (typed) or options (a choice list), not both`,
          'not_with',
          {
            other: 'accepted_answers',
          },
        );
      } else if (options === undefined) {
        if (blank.correct_option !== undefined) {
          issue(
            'blanks',
            `${at} has correct_option but no options: add the options it points into`,
            'missing',
          );
        } else if ((blank.accepted_answers ?? []).length === 0) {
          issue(
            'blanks',
            `${at} needs accepted_answers (the right texts) or options with correct_option (a choice list)`,
            'missing',
          );
        }
      } else {
        if (options.length < LIMITS.blankOptionsMin) {
          issue(
            'blanks',
            `${at} needs at least ${LIMITS.blankOptionsMin} options (got ${options.length})`,
            'too_few',
            {
              min: LIMITS.blankOptionsMin,
              got: options.length,
            },
          );
        }
        const first = new Map<string, number>();
        options.forEach((label, place) => {
          const earlier = first.get(label);
          if (earlier !== undefined) {
            issue(
              'blanks',
              `${at}.options[${place}] repeats options[${earlier}]: each option needs its own label`,
              'repeated',
              {
                line: earlier + 1,
              },
            );
          } else first.set(label, place);
        });
        if (blank.correct_option === undefined) {
          issue('blanks', `${at} needs correct_option: the 0-based index of its right option`, 'missing');
        } else if (blank.correct_option >= options.length) {
          issue(
            'blanks',
            `${at}.correct_option is ${blank.correct_option}, but its options go from 0 to ${options.length - 1}`,
            'too_large',
            { max: options.length - 1 },
          );
        }
      }
    });
  },
  fromInput: (input) => ({
    type: 'fill_in_blanks',
    blanks: (input.blanks ?? []).map((blank) => ({
      acceptedAnswers: blank.options === undefined ? [...(blank.accepted_answers ?? [])] : [],
      options: blank.options === undefined ? null : [...blank.options],
      correctOption: blank.options === undefined ? null : (blank.correct_option ?? 0),
      points: blank.points ?? 1,
    })),
  }),
  keySchema: z.object({
    blanks: z.array(
      z.object({
        acceptedAnswers: z.array(z.string()),
        options: z.array(z.string()).nullable(),
        correctOption: z.number().int().nullable(),
        points: z.number(),
      }),
    ),
  }),
  toStored: (key) => ({
    blanks: key.blanks.map((blank) => ({
      acceptedAnswers: [...blank.acceptedAnswers],
      options: blank.options === null ? null : [...blank.options],
      correctOption: blank.correctOption,
      points: blank.points,
    })),
  }),
  record: (key) => ({
    blanks: key.blanks.map((blank) =>
      blank.options === null
        ? { accepted_answers: [...blank.acceptedAnswers], points: blank.points }
        : { options: [...blank.options], correct_option: blank.correctOption ?? 0, points: blank.points },
    ),
  }),
  warnings: (record) =>
    record.blanks.some((blank) => blank.points > 0)
      ? []
      : noPointsPossible('blanks', 'no blank has points above 0'),
  maxPoints: (key) => key.blanks.reduce((sum, blank) => sum + Math.max(blank.points, 0), 0),
  points: (key, answer) => {
    if (!('blanks' in answer) || answer.blanks.length !== key.blanks.length) return 0;
    return key.blanks.reduce(
      (sum, blank, index) => sum + (blankRight(blank, answer.blanks[index]) ? blank.points : 0),
      0,
    );
  },
  answerKey: (key) =>
    JSON.stringify([
      key.type,
      key.blanks.map((blank) => [
        blank.points,
        blank.options === null
          ? [...new Set(blank.acceptedAnswers.map(comparableText))].sort()
          : [blank.options, blank.correctOption],
      ]),
    ]),
  // Answers are read per blank (options by label), so a changed key re-marks them; a changed count cannot.
  answersCarryOver: (previous, next) => previous.blanks.length === next.blanks.length,
  shufflesOptions: false,
  opaqueLists: (question) =>
    Object.fromEntries(
      question.blanks.flatMap((blank, index) =>
        blank.options === null ? [] : [[blankListName(index + 1), optionsSpec(blank.options)]],
      ),
    ),
  answerField: {
    name: 'blanks',
    schema: z
      .array(
        z
          .string({ error: 'each blank holds the text typed, an option_id, or null' })
          .max(TEXT_ANSWER_MAX * 2, { error: `a blank takes at most ${TEXT_ANSWER_MAX} characters` })
          .nullable(),
        { error: 'blanks must be an array: per blank in order, the text typed, an option_id, or null' },
      )
      .max(LIMITS.blanksMax, { error: `blanks takes at most ${LIMITS.blanksMax} entries` }),
    help: 'blanks (fill_in_blanks)',
    description:
      "fill_in_blanks: per blank in order, the text typed, the attempt's option_id chosen, or null.",
    jsonSchema: { type: 'array', items: { type: ['string', 'null'] }, maxItems: LIMITS.blanksMax },
  },
  parseAnswer: (question, answer, lists) => {
    const count = question.blanks.length;
    const given = answer.blanks;
    if (!Array.isArray(given) || given.length !== count)
      return { field: 'blanks', message: BLANKS_HELP(count) };
    const blanks: Array<BlankAnswer | null> = [];
    for (const [index, blank] of question.blanks.entries()) {
      const value = given[index];
      if (value === null || value === undefined || value === '') {
        blanks.push(null);
        continue;
      }
      if (typeof value !== 'string') return { field: 'blanks', message: BLANKS_HELP(count) };
      if (blank.options === null) {
        const typed = typedBlank(value, index + 1);
        if (typed !== null && 'field' in typed) return typed;
        blanks.push(typed);
        continue;
      }
      const list = (lists as OpaqueLists | undefined)?.[blankListName(index + 1)];
      if (!listFits(list, optionsSpec(blank.options))) {
        return {
          field: 'blanks',
          message:
            'a fill_in_blanks question with a choice list is answered through an attempt: start one and send the option_ids it lists.',
        };
      }
      const option = indexOfId(list, value);
      if (option < 0) {
        return {
          field: 'blanks',
          message: `blank ${index + 1} is a choice list: send one of the option_ids the attempt listed for it (${blankListName(index + 1)}), or null.`,
        };
      }
      blanks.push({ option, label: blank.options[option] });
    }
    if (blanks.every((blank) => blank === null))
      return {
        field: 'blanks',
        message: 'Fill in at least one blank, or leave the question out.',
        code: 'missing',
      };
    return { blanks };
  },
  // The form sends its blanks as one JSON list of strings (respondent/read-form-answers.ts).
  formAnswer: (value) => {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string'))
        return { blanks: parsed as string[] };
    } catch {
      // Not the form's shape: refused below as an answer that names no blanks.
    }
    return { blanks: [] };
  },
  valueSchema,
  storedAnswer: (question, choice) => {
    if (!('blanks' in choice)) return undefined;
    return {
      blanks: choice.blanks.map((answer, index) =>
        answer === null
          ? null
          : 'text' in answer
            ? { text: answer.text }
            : {
                option: answer.option,
                label: answer.label ?? question.blanks[index]?.options?.[answer.option] ?? '',
              },
      ),
    };
  },
  statKeys: (value) => ({
    statKey: `${STAT_PREFIX}${JSON.stringify(value.blanks.map(blankStatKey))}`,
    statValue: null,
    statNum: null,
  }),
  choiceOf: (value) => ({ blanks: value.blanks }),
  answerText: (value) => answerString(value.blanks) || null,
  typedValue: (value) => ({
    choices: null,
    blanks: value ? value.blanks.map((answer) => (answer ? blankShown(undefined, answer) : null)) : null,
  }),
  columns: (value) => ({ ...NO_ANSWER, text: answerString(value.blanks) }),
  // How many blanks the text's markers number: a respondent's answer lists that many.
  respondentFields: (question) => ({ blank_count: question.blanks.length }),
  rightAnswers: (question) => [
    question.blanks
      .map((blank, index) => {
        const right =
          blank.options === null
            ? blank.acceptedAnswers.join(' / ')
            : (blank.options[blank.correctOption ?? 0] ?? '');
        return `${index + 1}: ${right}`;
      })
      .join(BLANKS_SEPARATOR),
  ],
  analysisKeys: () => null,
  // Counted by the blanks given (its running figures); per blank from those counts.
  statistics: (question, { counts, round }): StatisticsOf<typeof fillInBlanksFields> => ({
    blanks: blankFigures(question, counts).map((blank) => ({
      ...blank,
      right_share: round(blank.right_share),
    })),
  }),
  commonAnswers: 'none',
  answerIsTyped: true,
  accepting: {
    // Each typed blank answered and not accepted; a choice-list blank has no text to accept.
    unaccepted: (key, value) =>
      value.blanks.flatMap((answer, index) => {
        const blank = key.blanks[index];
        if (!answer || !('text' in answer) || !blank || blank.options !== null) return [];
        return blankRight(blank, answer) ? [] : [{ part: index, text: answer.text }];
      }),
    add: (key, part, text) => {
      const blank = part === null ? undefined : key.blanks[part];
      if (!blank || blank.options !== null || part === null)
        return { problem: 'that blank is not a typed one of this question' };
      const added = withAccepted(blank.acceptedAnswers, text);
      if ('problem' in added) return added;
      const blanks = key.blanks.map((other, index) =>
        index === part ? { ...other, acceptedAnswers: added.accepted } : other,
      );
      return { key: { ...key, blanks } };
    },
  },
};
