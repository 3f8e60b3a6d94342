import { z } from 'zod';
import { LIMITS } from '../../limits';
import { NO_ANSWER, type Choice, type QuestionTypeDefinition } from '../definition';
import { indexOfId, listFits, type OpaqueListSpec } from '../opaque-ids';
import { noPointsPossible } from '../warnings';
import type { StatisticsOf } from '../shared-fields';
import type { orderingFields } from './fields';

/**
 * Items to put in order, given in the right order and always shown in another one, under ids
 * of the attempt (opaque-ids.ts). `points` for the whole order right; with `pointsPerItem`,
 * that many for each item in its right place instead.
 */
export interface OrderingQuestion {
  id: string;
  type: 'ordering';
  items: ReadonlyArray<{ label: string }>;
  points: number;
  pointsPerItem: number | null;
}

/** Between the labels of an order as results, CSV and the review show it ("B, A, C"). */
export const ORDER_SEPARATOR = ', ';

/**
 * Its answer as stored: the order chosen and the order shown, by canonical index, and the
 * labels chosen, which re-marking after a key fix (items reordered) places by label.
 */
const valueSchema = z.object({
  order: z.array(z.number().int()),
  shown: z.array(z.number().int()),
  labels: z.array(z.string()),
});

/** Its fields as the tools return them. */
export interface OrderingRecord {
  items: Array<{ label: string }>;
  points: number;
  points_per_item: number | null;
}

/** The running figures count an answer under its order: "o:" and the canonical indexes. */
const STAT_PREFIX = 'o:';

const itemsSpec = (question: Pick<OrderingQuestion, 'items'>): OpaqueListSpec => ({
  count: question.items.length,
  neverInOrder: true,
  labels: question.items.map((item) => item.label),
  idField: 'item_id',
});

/**
 * Each position's chosen item, as the key counts it now: an item is found by its label (an
 * edit may have reordered the items since), else by the index it had.
 */
function placed(key: Omit<OrderingQuestion, 'id'>, answer: Choice): number[] | null {
  if (!('order' in answer) || answer.order.length !== key.items.length) return null;
  return answer.order.map((index, position) => {
    const label = 'labels' in answer ? answer.labels?.[position] : undefined;
    const byLabel = label === undefined ? -1 : key.items.findIndex((item) => item.label === label);
    return byLabel >= 0 ? byLabel : index;
  });
}

const maxOf = (key: Omit<OrderingQuestion, 'id'>) =>
  key.pointsPerItem === null ? Math.max(key.points, 0) : Math.max(key.pointsPerItem, 0) * key.items.length;

const labelsOf = (question: Pick<OrderingQuestion, 'items'>, order: readonly number[]) =>
  order.map((index) => question.items[index]?.label ?? '');

/** Per position: how many put the right item there, and the wrong item put there most often. */
export interface PositionFigure {
  position: number;
  right_item: string;
  right_share: number | null;
  common_wrong_item: string | null;
  common_wrong_count: number;
}

/** The per-position figures from the answers' counts by order (flat in the number of responses). */
export function positionFigures(
  question: Pick<OrderingQuestion, 'items'>,
  counts: ReadonlyMap<string, number>,
): PositionFigure[] {
  const n = question.items.length;
  const atPosition = Array.from({ length: n }, () => new Map<number, number>());
  let answered = 0;
  for (const [key, count] of counts) {
    if (!key.startsWith(STAT_PREFIX)) continue;
    const order = key.slice(STAT_PREFIX.length).split(',').map(Number);
    if (order.length !== n) continue;
    answered += count;
    order.forEach((index, position) => {
      atPosition[position]!.set(index, (atPosition[position]!.get(index) ?? 0) + count);
    });
  }
  return question.items.map((item, position) => {
    const chosen = atPosition[position]!;
    let wrong: [number, number] | null = null;
    for (const [index, count] of chosen) {
      if (index !== position && count > 0 && (!wrong || count > wrong[1])) wrong = [index, count];
    }
    return {
      position: position + 1,
      right_item: item.label,
      right_share: answered === 0 ? null : (chosen.get(position) ?? 0) / answered,
      common_wrong_item: wrong ? (question.items[wrong[0]]?.label ?? null) : null,
      common_wrong_count: wrong ? wrong[1] : 0,
    };
  });
}

const ORDER_HELP = (count: number) =>
  `an ordering question takes order: each of its ${count} item_ids from the attempt exactly once, in the order chosen (first first).`;

export const ordering: QuestionTypeDefinition<
  OrderingQuestion,
  OrderingRecord,
  z.infer<typeof valueSchema>
> = {
  name: 'ordering',
  summary: 'ordering',
  // The reader gives each item, in its right order, its share of the grade: all of it for the
  // whole order (every share 100), or a part per item in its place.
  importing: {
    shape: 'sequence',
    build: (source, score) => {
      const items = source.answers.map((answer) => ({ label: answer.text }));
      const share = source.answers[0]?.fraction ?? 100;
      return share >= 100
        ? { items, points: score(source.grade) }
        : { items, points_per_item: score((source.grade * share) / 100) };
    },
  },
  // The inverse of importing: each item's share of the grade when points go per item in place.
  exporting: (record) => {
    const perItem = record.points_per_item;
    const count = record.items.length;
    return {
      shape: 'sequence',
      grade: perItem === null ? record.points : perItem * count,
      answers: record.items.map((item) => ({
        text: item.label,
        fraction: perItem === null ? 100 : 100 / count,
      })),
      unsaid: [],
    };
  },
  guide: [
    `The respondent puts ${LIMITS.orderingItemsMin}-${LIMITS.orderingItemsMax} \`items\` ({label}) in order. Give them in the RIGHT order:`,
    'respondents always see them shuffled, never in that order, under ids that change with each attempt.',
    'It earns `points` (default 1) when the whole order is right; or send `points_per_item` instead for that',
    'many points per item in its right place. Labels must differ. A quiz with an ordering question is taken',
    'through an attempt: the attempt lists each item with its item_id, and the answer is `order`, the item_ids',
    'in the order chosen.',
  ],
  statisticsGuide:
    'give `right_count` (whole order right) and, per position, `right_share` and `common_wrong_item`',
  reference: {
    fields: `\`items\`: ${LIMITS.orderingItemsMin}-${LIMITS.orderingItemsMax} of \`{label}\`, in the right order; \`points\` (default 1) or \`points_per_item\``,
    marked:
      'The points when the whole order is right; with `points_per_item`, that many for each item in its right place. Shown shuffled, never in the right order; always taken through an attempt.',
    answer: "`order`: the attempt's `item_id`s, in the order chosen",
    limit: { bound: `${LIMITS.orderingItemsMin}-${LIMITS.orderingItemsMax} items` },
  },
  keyHint:
    'an ordering question lists its items in the right order, e.g. items: [{"label": "Egg"}, {"label": "Larva"}, {"label": "Butterfly"}]',
  takes: ['items', 'points', 'points_per_item'],
  checkInput: (input, issue) => {
    const items = input.items ?? [];
    if (items.length < LIMITS.orderingItemsMin) {
      issue(
        'items',
        `an ordering question needs at least ${LIMITS.orderingItemsMin} items, in the right order (got ${items.length})`,
        'too_few',
        { min: LIMITS.orderingItemsMin, got: items.length },
      );
    }
    const seen = new Map<string, number>();
    items.forEach((item, index) => {
      const first = seen.get(item.label);
      if (first !== undefined) {
        issue(
          'items',
          `items[${index}] repeats the label of items[${first}]: each item needs its own label`,
          'repeated',
          { line: first + 1 },
        );
      } else seen.set(item.label, index);
    });
    if (input.points !== undefined && input.points_per_item !== undefined) {
      issue(
        'points_per_item',
        'give points (for the whole order) or points_per_item (for each item in place), not both',
        'not_with',
        { other: 'points' },
      );
    }
  },
  fromInput: (input) => ({
    type: 'ordering',
    items: (input.items ?? []).map((item) => ({ label: item.label })),
    points: input.points ?? 1,
    pointsPerItem: input.points_per_item ?? null,
  }),
  keySchema: z.object({
    items: z.array(z.object({ label: z.string() })),
    points: z.number(),
    pointsPerItem: z.number().nullable(),
  }),
  toStored: (key) => ({
    items: key.items.map((item) => ({ label: item.label })),
    points: key.points,
    pointsPerItem: key.pointsPerItem,
  }),
  record: (key) => ({
    items: key.items.map((item) => ({ label: item.label })),
    points: key.points,
    points_per_item: key.pointsPerItem,
  }),
  warnings: (record) =>
    record.points_per_item === null
      ? record.points > 0
        ? []
        : noPointsPossible('points', 'points is not above 0')
      : record.points_per_item > 0
        ? []
        : noPointsPossible('points_per_item', 'points_per_item is not above 0'),
  maxPoints: maxOf,
  points: (key, answer) => {
    const order = placed(key, answer);
    if (!order) return 0;
    const inPlace = order.filter((index, position) => index === position).length;
    if (key.pointsPerItem !== null) return Math.max(key.pointsPerItem, 0) * inPlace;
    return inPlace === key.items.length ? key.points : 0;
  },
  // The labels in their order are the key: a reorder changes which answers are right.
  answerKey: (key) =>
    JSON.stringify([key.type, key.items.map((item) => item.label), key.points, key.pointsPerItem]),
  // Answers are placed by label, so a reordered key re-marks them; a changed count cannot.
  answersCarryOver: (previous, next) => previous.items.length === next.items.length,
  shufflesOptions: false,
  opaqueLists: (question) => ({ items: itemsSpec(question) }),
  answerField: {
    name: 'order',
    schema: z
      .array(z.string({ error: 'order holds item_ids: the strings the attempt listed' }).max(64), {
        error: 'order must be an array of item_ids, in the order chosen',
      })
      .max(LIMITS.orderingItemsMax, { error: `order takes at most ${LIMITS.orderingItemsMax} item_ids` }),
    help: 'order (ordering)',
    description: "ordering: the attempt's item_ids, in the order chosen.",
    jsonSchema: { type: 'array', items: { type: 'string' }, uniqueItems: true },
  },
  parseAnswer: (question, answer, lists) => {
    const count = question.items.length;
    const list = lists?.items;
    if (!listFits(list, itemsSpec(question))) {
      return {
        field: 'order',
        message:
          'an ordering question is answered through an attempt: start one and send the item_ids it lists, in the order chosen.',
      };
    }
    const order = (answer.order ?? []).map((id) => indexOfId(list, id));
    const complete =
      Array.isArray(answer.order) &&
      order.length === count &&
      order.every((index) => index >= 0) &&
      new Set(order).size === count;
    if (!complete) return { field: 'order', message: ORDER_HELP(count) };
    return { order, shown: [...list.shown] };
  },
  // The form sends "<item_id>:<position>" per item (respondent/render-quiz-page.ts), 1 first.
  formAnswer: (value) => {
    const entries = value
      .split(',')
      .filter(Boolean)
      .map((entry) => {
        const [id = '', position = ''] = entry.split(':');
        return { id, position: /^\d{1,2}$/.test(position) ? Number(position) : Number.NaN };
      });
    const positions = new Set(entries.map((entry) => entry.position));
    const permutation =
      positions.size === entries.length &&
      entries.every((entry) => entry.position >= 1 && entry.position <= entries.length);
    // Positions left out or given twice: an order that names no item, which the question refuses.
    if (!permutation) return { order: [''] };
    return { order: [...entries].sort((a, b) => a.position - b.position).map((entry) => entry.id) };
  },
  valueSchema,
  storedAnswer: (question, choice) => {
    if (!('order' in choice)) return undefined;
    return {
      order: [...choice.order],
      shown: [...(choice.shown ?? [])],
      labels: labelsOf(question, choice.order),
    };
  },
  statKeys: (value) => ({
    statKey: `${STAT_PREFIX}${value.order.join(',')}`,
    statValue: null,
    statNum: null,
  }),
  choiceOf: (value) => ({ order: value.order, shown: value.shown, labels: value.labels }),
  answerText: (value) => value.labels.join(ORDER_SEPARATOR),
  typedValue: (value) => ({ choices: null, order: value ? value.order : null }),
  columns: (value) => ({ ...NO_ANSWER, text: value.labels.join(ORDER_SEPARATOR) }),
  rightAnswers: (question) => [question.items.map((item) => item.label).join(ORDER_SEPARATOR)],
  analysisKeys: () => null,
  // Counted by the order chosen (its running figures); per position from those counts.
  statistics: (question, { counts, round }): StatisticsOf<typeof orderingFields> => {
    const whole = counts.get(`${STAT_PREFIX}${question.items.map((_, i) => i).join(',')}`);
    return {
      right_count: whole ?? 0,
      positions: positionFigures(question, counts).map((position) => ({
        ...position,
        right_share: round(position.right_share),
      })),
    };
  },
  commonAnswers: 'none',
  answerIsTyped: false,
};
