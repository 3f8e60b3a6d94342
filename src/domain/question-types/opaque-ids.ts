import { randomBytes, randomInt } from 'node:crypto';

/**
 * Parts a question shows under opaque ids of one attempt (ordering's items; later matching's
 * prompts and matches, blanks' options, and the option types' options): the ids are random
 * and kept in the attempt's layout, so nothing a respondent receives (form, JSON attempt,
 * submission echo) sorts or hashes into the key, and each attempt gets new ones.
 */
export interface OpaqueList {
  /** Each part's id, by its index in the quiz's (canonical) order. */
  ids: string[];
  /** The canonical indexes in the order the attempt shows them. */
  shown: number[];
}

/** An attempt's lists for one question, by the name its type gives each list ("items"). */
export type OpaqueLists = Readonly<Record<string, OpaqueList>>;

/** What a type asks of a list: how many parts, and whether the quiz's order must never be shown. */
export interface OpaqueListSpec {
  count: number;
  /** The canonical order is the key (ordering): a draw that shows it is drawn again. */
  neverInOrder: boolean;
  /** Each part's label, by canonical index: what the form and the JSON attempt show. */
  labels: readonly string[];
  /** How the JSON attempt names a part's id ("item_id"). */
  idField: string;
}

/** A list as an attempt shows it: each part's id and label, in the order shown. */
export function shownParts(list: OpaqueList, spec: Pick<OpaqueListSpec, 'labels'>) {
  return list.shown.map((index) => ({ id: list.ids[index] ?? '', label: spec.labels[index] ?? '' }));
}

const ID_BYTES = 6;

function shuffle(indexes: number[]): number[] {
  for (let i = indexes.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [indexes[i], indexes[j]] = [indexes[j]!, indexes[i]!];
  }
  return indexes;
}

const inOrder = (indexes: readonly number[]) => indexes.every((value, position) => value === position);

/** A new list: distinct random ids, and a shuffled order (never the quiz's when asked so). */
export function drawOpaqueList({ count, neverInOrder }: OpaqueListSpec): OpaqueList {
  const ids = new Set<string>();
  while (ids.size < count) ids.add(randomBytes(ID_BYTES).toString('base64url'));
  let shown = shuffle([...Array(count).keys()]);
  // With two or more parts another order exists; re-draw until one is found.
  while (count > 1 && neverInOrder && inOrder(shown)) shown = shuffle(shown);
  return { ids: [...ids], shown };
}

/** Every list a question's type asks for, drawn for one attempt. */
export function drawOpaqueLists(specs: Readonly<Record<string, OpaqueListSpec>>): Record<string, OpaqueList> {
  return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, drawOpaqueList(spec)]));
}

/** The canonical index an id names in a list, or -1 when it names none. */
export const indexOfId = (list: OpaqueList, id: unknown): number =>
  typeof id === 'string' ? list.ids.indexOf(id) : -1;

/** A list still fits a question when it has as many parts (an edit that keeps the id keeps the count). */
export const listFits = (
  list: OpaqueList | undefined,
  spec: Pick<OpaqueListSpec, 'count'>,
): list is OpaqueList =>
  list !== undefined && list.ids.length === spec.count && list.shown.length === spec.count;
