import type { FoundWarning, TypedField } from './definition';

/** The warning rules the types share: a question nobody can earn points on. */

const NO_POINTS = 'so nobody can earn points here';

export const noPointsPossible = (field: TypedField, why: string): FoundWarning[] => [
  { code: 'no_points_possible', field, message: `${why}, ${NO_POINTS}` },
];

export const pointsRule = (record: { points: number }): FoundWarning[] =>
  record.points > 0 ? [] : noPointsPossible('points', 'points is not above 0');

export const optionsRule = (record: { options: ReadonlyArray<{ score: number }> }): FoundWarning[] =>
  record.options.some((option) => option.score > 0)
    ? []
    : noPointsPossible('options', 'no option scores above 0');
