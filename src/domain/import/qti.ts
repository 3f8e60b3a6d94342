import { posix } from 'node:path';
import { invalidInput } from '../errors';
import type { ImportShape } from '../question-types';
import type { ImportedBlank } from '../question-types';
import {
  note,
  UnreadableBank,
  type SourceAnswer,
  type SourceBank,
  type SourceImage,
  type SourceQuestion,
} from './bank';
import {
  child,
  descendants,
  elements,
  find,
  lostOf,
  noFlags,
  normalise,
  plainText,
  sourceName,
  type TextFlags,
  type TextHooks,
} from './qti-xml';
import { readXml, textOf, type XmlElement } from './xml';
import { openZip, type ZipPackage } from './zip';

/**
 * QTI content packages (a zip with `imsmanifest.xml`), 3.0 and 2.x, read into the bank every
 * format is read into (bank.ts). The manifest names the items; a test in it gives their order.
 * Each item's one interaction says what it asks for, and its response processing how it is
 * scored: a standard template (match_correct, map_response) or the common hand-written forms
 * of them (a match with the correct response, a map-response, an equal with a tolerance).
 */

/** The most items one package may hold (a bank of several quizzes). */
export const QTI_ITEMS_MAX = 1_000;

const MANIFEST = 'imsmanifest.xml';

/** Interactions by the shape of question they ask for; the others have no type here. */
const SHAPES: Readonly<Record<string, ImportShape>> = {
  'qti-choice-interaction': 'one_choice',
  'qti-text-entry-interaction': 'text_answers',
  'qti-order-interaction': 'sequence',
  'qti-match-interaction': 'pairs',
  'qti-associate-interaction': 'pairs',
  'qti-gap-match-interaction': 'blanks',
  'qti-inline-choice-interaction': 'blanks',
  'qti-extended-text-interaction': 'open',
  'qti-slider-interaction': 'rating',
};

/** QTI's interactions as the API reference lists them, with the shape each is read as. */
export const QTI_INTERACTIONS: ReadonlyArray<readonly [string, ImportShape]> = [
  ['choice, two choices True/False or Yes/No', 'truth'],
  ['choice with one right answer', 'one_choice'],
  ['choice with several', 'many_choices'],
  ['text entry of a string alone in its paragraph', 'text_answers'],
  ['text entry of a number (with its tolerance)', 'numeric'],
  ['order', 'sequence'],
  ['match (two match sets) and associate, a mapping giving each pair its points', 'pairs'],
  ['text entries within a sentence and inline choices, each scored on its own (a blank each)', 'blanks'],
  ["extended text (its points the SCORE outcome's maximum, a scorer's rubric table its rubric)", 'open'],
  ['slider over whole numbers', 'rating'],
  [
    'match shown as a table (class qti-match-tabular): rows against columns, each row right earning its share',
    'matrix',
  ],
];

/** A match interaction shown as a table (QTI's shared vocabulary): a grid of rows against columns. */
const isTabular = (interaction: XmlElement) =>
  interaction.name === 'qti-match-interaction' &&
  (interaction.attributes.class ?? '').split(/\s+/).includes('qti-match-tabular');

/** How an item scores its response, as far as it is read here. */
type Scoring =
  | { kind: 'map'; entries: Map<string, number>; defaultValue: number; lower?: number; upper?: number }
  | { kind: 'correct'; points: number }
  | { kind: 'numeric'; value?: number; tolerance: number; points: number }
  | { kind: 'none' };

interface Declaration {
  cardinality: string;
  baseType: string;
  correct: string[];
  mapping?: XmlElement;
  caseSensitive: boolean;
}

const numberOf = (text: string | undefined): number | undefined => {
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text.trim());
  return Number.isFinite(value) ? value : undefined;
};

function declarationOf(item: XmlElement, id: string): Declaration | undefined {
  const declaration = elements(item, 'qti-response-declaration').find(
    (element) => element.attributes.identifier === id,
  );
  if (!declaration) return undefined;
  const correct = elements(child(declaration, 'qti-correct-response') ?? declaration, 'qti-value').map(
    (value) => textOf(value).trim(),
  );
  const mapping = child(declaration, 'qti-mapping');
  const entries = mapping ? elements(mapping, 'qti-map-entry') : [];
  return {
    cardinality: declaration.attributes.cardinality ?? 'single',
    baseType: declaration.attributes['base-type'] ?? 'identifier',
    correct: child(declaration, 'qti-correct-response') ? correct : [],
    ...(mapping ? { mapping } : {}),
    // QTI 3.0 entries are case-sensitive unless they say not; 2.x entries must say.
    caseSensitive: entries.some((entry) => entry.attributes['case-sensitive'] !== 'false'),
  };
}

/** The points a response-if sets SCORE to, when it sets it to a number. */
function pointsSetIn(branch: XmlElement | undefined): number | undefined {
  if (!branch) return undefined;
  const set = elements(branch, 'qti-set-outcome-value').find(
    (element) => element.attributes.identifier === 'SCORE',
  );
  const base = set && child(set, 'qti-base-value');
  return base ? numberOf(textOf(base)) : undefined;
}

/** The branch (response-if or else-if) whose condition is `condition`. */
function branchOf(processing: XmlElement, condition: XmlElement): XmlElement | undefined {
  return [
    ...descendants(processing, 'qti-response-if'),
    ...descendants(processing, 'qti-response-else-if'),
  ].find((branch) => elements(branch)[0] === condition);
}

const refersTo = (element: XmlElement, id: string) =>
  elements(element, 'qti-variable').some((variable) => variable.attributes.identifier === id);

function scoringOf(
  item: XmlElement,
  id: string,
  declaration: Declaration,
  lose: (what: string) => void,
): Scoring {
  const processing = child(item, 'qti-response-processing');
  const mapping = declaration.mapping;
  const mapped = (): Scoring => {
    const entries = new Map<string, number>();
    for (const entry of elements(mapping!, 'qti-map-entry')) {
      entries.set(entry.attributes['map-key'] ?? '', numberOf(entry.attributes['mapped-value']) ?? 0);
    }
    const lower = numberOf(mapping!.attributes['lower-bound']);
    const upper = numberOf(mapping!.attributes['upper-bound']);
    return {
      kind: 'map',
      entries,
      defaultValue: numberOf(mapping!.attributes['default-value']) ?? 0,
      ...(lower !== undefined ? { lower } : {}),
      ...(upper !== undefined ? { upper } : {}),
    };
  };
  const byCorrect = (): Scoring =>
    declaration.correct.length > 0 ? { kind: 'correct', points: 1 } : { kind: 'none' };
  if (!processing) return byCorrect();
  const template = processing.attributes.template ?? processing.attributes['template-location'] ?? '';
  if (/map_response_point(\.xml)?$/.test(template)) return { kind: 'none' };
  if (/map_response(\.xml)?$/.test(template) && mapping) return mapped();
  if (/match_correct(\.xml)?$/.test(template)) return byCorrect();
  if (template) {
    lose('its response processing template (read as 1 point for the correct response)');
    return byCorrect();
  }
  if (
    mapping &&
    descendants(processing, 'qti-map-response').some((element) => element.attributes.identifier === id)
  ) {
    return mapped();
  }
  const equal = [
    ...descendants(processing, 'qti-equal'),
    ...descendants(processing, 'qti-equal-rounded'),
  ].find((element) => refersTo(element, id));
  if (equal) {
    if (equal.name === 'qti-equal-rounded') lose('rounding before comparing');
    const base = child(equal, 'qti-base-value');
    const value = base ? numberOf(textOf(base)) : numberOf(declaration.correct[0]);
    const mode = equal.attributes['tolerance-mode'] ?? 'exact';
    const [below, above] = (equal.attributes.tolerance ?? '0')
      .trim()
      .split(/\s+/)
      .map((part) => Math.abs(numberOf(part) ?? 0));
    let tolerance = mode === 'exact' ? 0 : Math.max(below ?? 0, above ?? below ?? 0);
    if (mode !== 'exact' && below !== (above ?? below)) lose('different tolerances above and below');
    if (mode === 'relative' && value !== undefined) tolerance = (Math.abs(value) * tolerance) / 100;
    if (
      equal.attributes['include-lower-bound'] === 'false' ||
      equal.attributes['include-upper-bound'] === 'false'
    ) {
      lose('a tolerance that leaves out its bounds');
    }
    return {
      kind: 'numeric',
      ...(value !== undefined ? { value } : {}),
      tolerance,
      points: pointsSetIn(branchOf(processing, equal)) ?? 1,
    };
  }
  const match = descendants(processing, 'qti-match').find((element) => refersTo(element, id));
  if (match) {
    const points = pointsSetIn(branchOf(processing, match));
    const base = child(match, 'qti-base-value');
    if (base && declaration.correct.length === 0) declaration.correct = [textOf(base).trim()];
    return declaration.correct.length > 0 ? { kind: 'correct', points: points ?? 1 } : { kind: 'none' };
  }
  if (declaration.correct.length > 0)
    lose('its own response processing (read as 1 point for the correct response)');
  return byCorrect();
}

/** What the item's one interaction asks for, filled into `question`. */
function readInteraction(
  item: XmlElement,
  interaction: XmlElement,
  question: SourceQuestion,
  flags: TextFlags,
  where: string,
  pictures: Pictures,
): void {
  const id = interaction.attributes['response-identifier'] ?? '';
  const declaration = declarationOf(item, id);
  const lose = (what: string) => note(question.lost, what);
  if (!declaration) {
    question.problems.push(`${where}: no <qti-response-declaration> "${id}" for its interaction`);
    return;
  }
  const shape = question.shape;
  // A grid reads its points per row itself (readMatrix): its row-by-row processing is no loss.
  const scoring = scoringOf(item, id, declaration, shape === 'matrix' ? () => undefined : lose);
  if (shape === 'one_choice')
    return readChoice(interaction, declaration, scoring, question, flags, where, pictures);
  if (shape === 'text_answers') return readTextEntry(declaration, scoring, question, where);
  if (shape === 'sequence') return readOrder(interaction, declaration, scoring, question, flags, where);
  if (shape === 'rating') return readSlider(interaction, scoring, question, where);
  if (shape === 'pairs') return readPairs(interaction, declaration, scoring, question, flags, where);
  if (shape === 'matrix') return readMatrix(item, interaction, declaration, scoring, question, flags, where);
  if (shape === 'open') return readOpen(item, question, where);
  if (shape === 'blanks') {
    question.problems.push(
      `${where}: gap match items are not read yet (inline choices and text entries are)`,
    );
  }
}

/** A slider with whole steps and no right answer: a rating on a scale. */
function readSlider(
  interaction: XmlElement,
  scoring: Scoring,
  question: SourceQuestion,
  where: string,
): void {
  const min = numberOf(interaction.attributes['lower-bound']);
  const max = numberOf(interaction.attributes['upper-bound']);
  const step = numberOf(interaction.attributes.step) ?? 1;
  if (min === undefined || max === undefined) {
    question.problems.push(`${where}: no lower-bound and upper-bound`);
    return;
  }
  if (step !== 1 || !Number.isInteger(min) || !Number.isInteger(max)) {
    question.problems.push(`${where}: only sliders over whole numbers in steps of 1 become a scale`);
    return;
  }
  if (scoring.kind !== 'none') lose(question, 'its scoring (a scale asks an opinion and is never marked)');
  question.range = { min, max };
}

/** The choices of a choice or order interaction: identifier and text (feedback left out). */
function choicesOf(
  interaction: XmlElement,
  flags: TextFlags,
  question: SourceQuestion,
  pictures?: Pictures,
  name = 'qti-simple-choice',
) {
  return descendants(interaction, name).map((choice) => {
    const own = noFlags();
    let image: SourceImage | undefined;
    const text = plainText(choice, own, {
      image: (img) => {
        if (!pictures || image) return false;
        image = pictures.take(img);
        return image !== undefined;
      },
    });
    if (own.feedback) note(question.lost, 'feedback per answer');
    own.feedback = false;
    for (const key of Object.keys(own) as Array<keyof TextFlags>) if (own[key]) flags[key] = true;
    return { id: choice.attributes.identifier ?? '', text, ...(image ? { image } : {}) };
  });
}

const TRUTHS: ReadonlyArray<readonly [string, string]> = [
  ['true', 'false'],
  ['yes', 'no'],
];

function readChoice(
  interaction: XmlElement,
  declaration: Declaration,
  scoring: Scoring,
  question: SourceQuestion,
  flags: TextFlags,
  where: string,
  pictures: Pictures,
): void {
  const choices = choicesOf(interaction, flags, question, pictures);
  const maxChoices = numberOf(interaction.attributes['max-choices']) ?? 1;
  const multiple = declaration.cardinality === 'multiple' || maxChoices !== 1;
  if ((numberOf(interaction.attributes['min-choices']) ?? 0) > 1)
    note(question.lost, 'a least number of choices');
  if (multiple && maxChoices > 1 && maxChoices < choices.length)
    note(question.lost, 'a most number of choices');
  const valueOf = (choiceId: string): number => {
    if (scoring.kind === 'map') return scoring.entries.get(choiceId) ?? scoring.defaultValue;
    if (scoring.kind === 'correct' && declaration.correct.includes(choiceId)) {
      return multiple ? scoring.points / declaration.correct.length : scoring.points;
    }
    if (scoring.kind === 'correct' && multiple) return -scoring.points;
    return 0;
  };
  const words = choices.map((choice) => choice.text.trim().toLowerCase());
  const truth = TRUTHS.find(
    (pair) => words.length === 2 && words.includes(pair[0]) && words.includes(pair[1]),
  );
  if (!multiple && truth) {
    const right = choices.reduce((best, choice) => (valueOf(choice.id) > valueOf(best.id) ? choice : best));
    const wrong = choices.find((choice) => choice !== right)!;
    if (valueOf(right.id) > 0 && valueOf(wrong.id) === 0) {
      question.shape = 'truth';
      question.grade = valueOf(right.id);
      const saysYes = right.text.trim().toLowerCase() === truth[0];
      question.answers = [{ text: saysYes ? 'true' : 'false', fraction: 100 }];
      if (choices.some((choice) => choice.image)) flags.images = true;
      return;
    }
  }
  if (multiple) {
    question.shape = 'many_choices';
    if (scoring.kind === 'correct' && declaration.correct.length > 1) {
      lose(question, 'all-or-nothing marking (each right choice earns its share here)');
    }
    if (scoring.kind === 'map') {
      const best = choices.reduce((sum, choice) => sum + Math.max(0, valueOf(choice.id)), 0);
      if (scoring.upper !== undefined && scoring.upper < best) lose(question, 'a cap on the total score');
      if (scoring.lower === undefined || scoring.lower < 0) lose(question, 'a total score below 0');
    }
  }
  if (choices.length === 0) question.problems.push(`${where}: no <qti-simple-choice> in it`);
  question.grade = 1;
  question.answers = choices.map((choice) => ({
    text: choice.text,
    fraction: valueOf(choice.id) * 100,
    ...(choice.image ? { image: choice.image } : {}),
  }));
}

const lose = (question: SourceQuestion, what: string) => note(question.lost, what);

function readTextEntry(declaration: Declaration, scoring: Scoring, question: SourceQuestion, where: string) {
  const numeric = declaration.baseType === 'float' || declaration.baseType === 'integer';
  const answers: SourceAnswer[] = [];
  if (numeric) question.shape = 'numeric';
  if (scoring.kind === 'numeric') {
    const value = scoring.value ?? numberOf(declaration.correct[0]);
    if (value === undefined) {
      question.problems.push(`${where}: no number to compare the answer with`);
      return;
    }
    question.shape = 'numeric';
    question.grade = scoring.points;
    question.answers = [{ text: String(value), fraction: 100, tolerance: scoring.tolerance }];
    return;
  }
  if (scoring.kind === 'map') {
    const best = Math.max(0, ...scoring.entries.values());
    question.grade = best > 0 ? best : 1;
    for (const [key, value] of scoring.entries) {
      answers.push({ text: key, fraction: (value / question.grade) * 100, tolerance: 0 });
    }
    if (!numeric && declaration.caseSensitive) lose(question, 'case-sensitive matching');
  } else if (scoring.kind === 'correct') {
    question.grade = scoring.points;
    for (const value of declaration.correct) answers.push({ text: value, fraction: 100, tolerance: 0 });
    if (!numeric && answers.some((answer) => /\p{L}/u.test(answer.text)))
      lose(question, 'case-sensitive matching');
  }
  if (numeric) {
    const bad = answers.find((answer) => numberOf(answer.text) === undefined);
    if (bad) question.problems.push(`${where}: "${bad.text}" is not a number`);
    if (answers.length === 0) {
      question.problems.push(
        `${where}: no right number is given (a number worked out from template variables is not read)`,
      );
    }
  }
  question.answers = answers;
}

function readOrder(
  interaction: XmlElement,
  declaration: Declaration,
  scoring: Scoring,
  question: SourceQuestion,
  flags: TextFlags,
  where: string,
): void {
  const choices = choicesOf(interaction, flags, question);
  if (declaration.correct.length === 0) {
    question.problems.push(`${where}: no <qti-correct-response> giving the right order`);
    return;
  }
  if (scoring.kind === 'map') lose(question, 'partial credit for parts of the order');
  question.grade = scoring.kind === 'correct' ? scoring.points : 1;
  const answers: SourceAnswer[] = [];
  for (const id of declaration.correct) {
    const choice = choices.find((candidate) => candidate.id === id);
    if (!choice) {
      question.problems.push(`${where}: the correct order names "${id}", which is not one of its choices`);
      return;
    }
    answers.push({ text: choice.text, fraction: 100 });
  }
  if (answers.length < choices.length) lose(question, 'choices left out of the right order');
  question.answers = answers;
}

/**
 * The package's pictures an item points at (`<img src>` relative to the item), read before the
 * item is: each taken at most once, by the question or one of its options.
 */
class Pictures {
  constructor(
    private readonly itemPath: string,
    private readonly files: ReadonlyMap<string, Uint8Array>,
  ) {}

  /** The picture `img` shows, when it is a file of the package; else undefined (lost). */
  take(img: XmlElement): SourceImage | undefined {
    const path = packagePath(this.itemPath, img.attributes.src);
    const bytes = path === undefined ? undefined : this.files.get(path);
    if (path === undefined || bytes === undefined) return undefined;
    const alt = img.attributes.alt?.trim();
    return { name: path, alt: alt ? alt : null, bytes };
  }
}

/** A file's path in the package from a reference in `from` (undefined: an address elsewhere). */
function packagePath(from: string, href: string | undefined): string | undefined {
  if (!href || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/')) return undefined;
  try {
    return posix.normalize(posix.join(posix.dirname(from), decodeURI(href.split(/[?#]/)[0]!)));
  } catch {
    return undefined;
  }
}

/** The pictures an item's source points at, as package paths (read before the item is). */
export function picturePaths(source: string, itemPath: string): string[] {
  const paths = new Set<string>();
  // Each `<img ...>` to its first `>`, then its src within it: one lazy pattern over both took
  // time quadratic in a text of many `<img` without a `>` (html-text.ts, replaceTags).
  const end = source.lastIndexOf('>') + 1;
  for (const tag of source.slice(0, end).matchAll(/<(?:[A-Za-z0-9_-]+:)?img\b[^>]*>/g)) {
    const src = /\ssrc\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')/.exec(tag[0]);
    if (!src) continue;
    const path = packagePath(itemPath, (src[1] ?? src[2]!).replace(/&amp;/g, '&'));
    if (path !== undefined) paths.add(path);
  }
  return [...paths];
}

const associableChoices = (parent: XmlElement, question: SourceQuestion, flags: TextFlags) =>
  choicesOf(parent, flags, question, undefined, 'qti-simple-associable-choice');

/** A match interaction's two sets and their choices, or null (a problem said) when it has not two. */
function matchSets(interaction: XmlElement, question: SourceQuestion, flags: TextFlags, where: string) {
  const sets = elements(interaction, 'qti-simple-match-set');
  if (sets.length !== 2) {
    question.problems.push(`${where}: ${sets.length} <qti-simple-match-set>, not 2`);
    return null;
  }
  return {
    elements: sets,
    first: associableChoices(sets[0]!, question, flags),
    second: associableChoices(sets[1]!, question, flags),
  };
}

/**
 * A grid: the first match set its rows, the second its columns, the correct response per row its
 * right columns (none: a survey). A row that may match several columns makes it a checkbox grid.
 * Its points per row are the SCORE outcome's maximum shared by the rows, else a mapping's value
 * for a right pair; a row is marked right or wrong as a whole here.
 */
function readMatrix(
  item: XmlElement,
  interaction: XmlElement,
  declaration: Declaration,
  scoring: Scoring,
  question: SourceQuestion,
  flags: TextFlags,
  where: string,
): void {
  const sets = matchSets(interaction, question, flags, where);
  if (!sets) return;
  const { first: rows, second: columns } = sets;
  const checkboxes = elements(sets.elements[0]!, 'qti-simple-associable-choice').some(
    (choice) => (numberOf(choice.attributes['match-max']) ?? 1) !== 1,
  );
  const right: number[][] = rows.map(() => []);
  for (const value of declaration.correct) {
    const [first, second] = value.split(/\s+/);
    const row = rows.findIndex((choice) => choice.id === first);
    const column = columns.findIndex((choice) => choice.id === second);
    if (row < 0 || column < 0) {
      question.problems.push(
        `${where}: the correct response "${value}" names a row or column it does not have`,
      );
      return;
    }
    if (!right[row]!.includes(column)) right[row]!.push(column);
  }
  const keyed = declaration.correct.length > 0;
  if (keyed && !checkboxes && right.some((chosen) => chosen.length !== 1)) {
    lose(question, 'rows with no right column, or more than one');
  }
  const maximum = maximumOf(item);
  const mapped =
    scoring.kind === 'map' ? [...scoring.entries.values()].find((value) => value > 0) : undefined;
  const pointsPerRow = maximum !== undefined && rows.length > 0 ? maximum / rows.length : (mapped ?? 1);
  if (keyed && scoring.kind === 'map' && checkboxes)
    lose(question, 'points per right pair (a row earns its points when all of it is right)');
  question.grade = keyed ? pointsPerRow * rows.length : 0;
  question.matrix = {
    rows: rows.map((choice) => choice.text),
    columns: columns.map((choice) => choice.text),
    checkboxes,
    right: keyed ? right : null,
    pointsPerRow,
  };
}

/** Pairs to match: a match interaction's two sets (prompts, then matches), or an associate's pairs. */
function readPairs(
  interaction: XmlElement,
  declaration: Declaration,
  scoring: Scoring,
  question: SourceQuestion,
  flags: TextFlags,
  where: string,
): void {
  const matchSet = interaction.name === 'qti-match-interaction';
  const sets = matchSet ? matchSets(interaction, question, flags, where) : null;
  if (matchSet && !sets) return;
  const prompts = sets ? sets.first : associableChoices(interaction, question, flags);
  const matches = sets ? sets.second : prompts;
  if (declaration.correct.length === 0) {
    question.problems.push(`${where}: no <qti-correct-response> giving the right pairs`);
    return;
  }
  const list: Array<{ prompt: string; match: string }> = [];
  const used = new Set<string>();
  const points: number[] = [];
  for (const value of declaration.correct) {
    const [first, second] = value.split(/\s+/);
    let prompt = prompts.find((choice) => choice.id === first);
    let match = matches.find((choice) => choice.id === second);
    if (matchSet && (!prompt || !match)) {
      // A directed pair written the other way round (match, then prompt).
      prompt = prompts.find((choice) => choice.id === second);
      match = matches.find((choice) => choice.id === first);
    }
    if (!prompt || !match) {
      question.problems.push(`${where}: the correct response "${value}" names a choice it does not have`);
      return;
    }
    if (list.some((pair) => pair.prompt === prompt.text)) {
      lose(question, 'a second right match for one prompt');
      continue;
    }
    list.push({ prompt: prompt.text, match: match.text });
    used.add(prompt.id).add(match.id);
    if (scoring.kind === 'map') {
      points.push(
        scoring.entries.get(`${first} ${second}`) ?? scoring.entries.get(`${second} ${first}`) ?? 0,
      );
    }
  }
  if (matchSet && prompts.some((choice) => !used.has(choice.id)))
    lose(question, 'prompts with no right match');
  const extra = matchSet
    ? matches.filter((choice) => !used.has(choice.id)).map((choice) => choice.text)
    : prompts.filter((choice) => !used.has(choice.id)).map((choice) => choice.text);
  if (scoring.kind === 'map') {
    question.grade = points.reduce((sum, value) => sum + value, 0);
    if (points.some((value) => value !== points[0])) lose(question, 'different points for different pairs');
    const paired = new Set(declaration.correct.map((value) => value.split(/\s+/).join(' ')));
    if ([...scoring.entries].some(([key, value]) => value > 0 && !paired.has(key.split(/\s+/).join(' ')))) {
      lose(question, 'points for pairs other than the right ones');
    }
  } else {
    question.grade = scoring.kind === 'correct' ? scoring.points : 1;
    if (list.length > 1) lose(question, 'all-or-nothing marking (each right pair earns its share here)');
  }
  question.pairs = { list, extra };
}

/** The SCORE outcome's most, when the item says it (an essay's points). */
function maximumOf(item: XmlElement): number | undefined {
  const score = elements(item, 'qti-outcome-declaration').find(
    (element) => element.attributes.identifier === 'SCORE',
  );
  const maximum = numberOf(score?.attributes['normal-maximum']);
  if (maximum !== undefined) return maximum;
  const max = elements(item, 'qti-outcome-declaration').find(
    (element) => element.attributes.identifier === 'MAXSCORE',
  );
  const value = max && find(max, 'qti-value');
  return value ? numberOf(textOf(value)) : undefined;
}

/** A level as the export writes it in a rubric's cell: "Label (3 points)". */
const LEVEL = /^(.*\S)\s+\((-?\d+(?:\.\d+)?) points?\)$/s;

/** An essay: its points (the SCORE outcome's maximum) and a scorer's rubric, when it is a table of ours. */
function readOpen(item: XmlElement, question: SourceQuestion, where: string): void {
  const maximum = maximumOf(item);
  question.grade = maximum ?? 1;
  if (maximum === undefined) lose(question, 'its points (none given: 1 point)');
  const blocks = descendants(item, 'qti-rubric-block').filter((block) =>
    (block.attributes.view ?? '').split(/\s+/).includes('scorer'),
  );
  if (blocks.length === 0) return;
  const rubric: Array<{ criterion: string; levels: Array<{ label: string; points: number }> }> = [];
  for (const row of blocks.flatMap((block) => descendants(block, 'tr'))) {
    const flags = noFlags();
    const header = child(row, 'th');
    const criterion = header ? plainText(header, flags) : '';
    const levels = elements(row, 'td').map((cell) => LEVEL.exec(plainText(cell, flags)));
    if (!criterion || levels.length === 0 || levels.some((level) => level === null)) {
      rubric.length = 0;
      break;
    }
    rubric.push({
      criterion,
      levels: levels.map((level) => ({ label: level![1]!, points: Number(level![2]) })),
    });
  }
  if (rubric.length === 0) {
    lose(question, `the scorer's rubric (${where}: not a table of criteria and levels)`);
    return;
  }
  question.essay = { rubric };
}

const BLANK_INTERACTION = /^qti-(text-entry|inline-choice)-interaction$/;

/**
 * Blanks: the item's text entries and inline choices, each its own response scored on its own
 * (a mapping, or points for the correct response), `[[n]]` in the text where each stands.
 */
function readBlanks(
  item: XmlElement,
  interactions: readonly XmlElement[],
  question: SourceQuestion,
  flags: TextFlags,
  where: (element: XmlElement) => string,
): void {
  const blanks: ImportedBlank[] = [];
  for (const interaction of interactions) {
    const at = where(interaction);
    const id = interaction.attributes['response-identifier'] ?? '';
    const declaration = declarationOf(item, id);
    if (!declaration) {
      question.problems.push(`${at}: no <qti-response-declaration> "${id}" for its interaction`);
      return;
    }
    const scoring = scoringOf(item, id, declaration, (what) => lose(question, what));
    if (interaction.name === 'qti-inline-choice-interaction') {
      const choices = choicesOf(interaction, flags, question, undefined, 'qti-inline-choice');
      const valueOf = (choiceId: string) =>
        scoring.kind === 'map'
          ? (scoring.entries.get(choiceId) ?? scoring.defaultValue)
          : declaration.correct.includes(choiceId) && scoring.kind === 'correct'
            ? scoring.points
            : 0;
      const right =
        choices.find((choice) => declaration.correct.includes(choice.id)) ??
        choices.reduce<(typeof choices)[number] | undefined>(
          (best, choice) => (best === undefined || valueOf(choice.id) > valueOf(best.id) ? choice : best),
          undefined,
        );
      if (!right || choices.length < 2) {
        question.problems.push(`${at}: no right choice among its <qti-inline-choice>`);
        return;
      }
      const grade = Math.max(0, valueOf(right.id));
      blanks.push({
        grade,
        choice: true,
        answers: choices.map((choice) => ({
          text: choice.text,
          fraction: choice === right ? 100 : grade > 0 ? (Math.max(0, valueOf(choice.id)) / grade) * 100 : 0,
        })),
      });
      continue;
    }
    if (declaration.baseType !== 'string') lose(question, 'numbers in blanks (compared as text here)');
    let grade = 0;
    let answers: Array<{ text: string; fraction: number }> = [];
    if (scoring.kind === 'map') {
      grade = Math.max(0, ...scoring.entries.values());
      answers = [...scoring.entries].map(([text, value]) => ({
        text,
        fraction: grade > 0 ? (value / grade) * 100 : 100,
      }));
      if (declaration.caseSensitive) lose(question, 'case-sensitive matching');
    } else if (scoring.kind === 'correct' || scoring.kind === 'numeric') {
      grade = scoring.points;
      answers = declaration.correct.map((text) => ({ text, fraction: 100 }));
      if (answers.some((answer) => /\p{L}/u.test(answer.text))) lose(question, 'case-sensitive matching');
    }
    if (answers.length === 0) {
      question.problems.push(`${at}: no right answer for this blank`);
      return;
    }
    blanks.push({ grade, choice: false, answers });
  }
  question.blanks = blanks;
  question.grade = blanks.reduce((sum, blank) => sum + blank.grade, 0);
}

/** Whether an inline interaction stands alone in its block (a short answer), not in a sentence. */
function standsAlone(body: XmlElement, interaction: XmlElement): boolean {
  const parent = [body, ...descendants(body)].find((element) => element.children.includes(interaction));
  if (!parent) return true;
  return parent.children.every(
    (other) => other === interaction || (typeof other === 'string' && !other.trim()),
  );
}

/** The explanation: feedback shown to every respondent (set whatever the answer), if it is one. */
function explanationOf(item: XmlElement, flags: TextFlags): string | undefined {
  const processing = child(item, 'qti-response-processing');
  const shown = [...elements(item, 'qti-modal-feedback'), ...descendants(item, 'qti-feedback-block')];
  if (!processing || shown.length !== 1) return undefined;
  const feedback = shown[0]!;
  const always = elements(processing, 'qti-set-outcome-value').some(
    (set) =>
      set.attributes.identifier === feedback.attributes['outcome-identifier'] &&
      textOf(child(set, 'qti-base-value')).trim() === feedback.attributes.identifier,
  );
  if (!always || feedback.attributes['show-hide'] === 'hide') return undefined;
  const own = noFlags();
  const text = plainText(feedback, own);
  for (const key of Object.keys(own) as Array<keyof TextFlags>) if (own[key]) flags[key] = true;
  flags.feedback = descendants(item).some(
    (element) =>
      element !== feedback && /^qti-(feedback-inline|feedback-block|modal-feedback)$/.test(element.name),
  );
  return text || undefined;
}

/** One item file read into a source question. */
export function readQtiItem(
  source: string,
  path: string,
  files: ReadonlyMap<string, Uint8Array> = new Map(),
): SourceQuestion {
  const question: SourceQuestion = {
    at: path,
    sourceType: 'qti item',
    shape: null,
    text: '',
    grade: 1,
    answers: [],
    lost: [],
    problems: [],
  };
  let raw: XmlElement;
  try {
    raw = readXml(source);
  } catch (error) {
    if (!(error instanceof UnreadableBank)) throw error;
    question.problems.push(`${path}: ${error.message}`);
    return question;
  }
  return readItemElement(raw, path, files, question);
}

function readItemElement(
  raw: XmlElement,
  path: string,
  files: ReadonlyMap<string, Uint8Array>,
  question: SourceQuestion = {
    at: path,
    sourceType: 'qti item',
    shape: null,
    text: '',
    grade: 1,
    answers: [],
    lost: [],
    problems: [],
  },
): SourceQuestion {
  const rootName = raw.name.slice(raw.name.indexOf(':') + 1);
  const version = rootName === 'qti-assessment-item' ? 3 : rootName === 'assessmentItem' ? 2 : null;
  if (!version) {
    question.problems.push(`${path}: the root element is <${raw.name}>, not a QTI item`);
    return question;
  }
  const item = normalise(raw, version);
  const title = item.attributes.title?.trim();
  if (title) question.name = title;
  const body = child(item, 'qti-item-body');
  const interactions = body
    ? descendants(body).filter((element) => element.name.endsWith('-interaction'))
    : [];
  const flags = noFlags();
  const pictures = new Pictures(path, files);
  const declared = (interaction: XmlElement) =>
    declarationOf(item, interaction.attributes['response-identifier'] ?? '');
  // Blanks: several text entries and inline choices, or one that stands in a sentence (a text
  // entry of a string) or offers choices; a text entry alone in its block is a short answer.
  const blanks =
    body !== undefined &&
    interactions.length > 0 &&
    interactions.every((interaction) => BLANK_INTERACTION.test(interaction.name)) &&
    (interactions.length > 1 ||
      interactions[0]!.name === 'qti-inline-choice-interaction' ||
      (!standsAlone(body, interactions[0]!) && declared(interactions[0]!)?.baseType === 'string'));
  const hooks: TextHooks = {
    image: (img) => {
      if (question.image) return false;
      const image = pictures.take(img);
      if (image) question.image = image;
      return image !== undefined;
    },
    ...(blanks
      ? {
          marker: (interaction: XmlElement) => {
            const index = interactions.indexOf(interaction);
            return index < 0 ? undefined : `[[${index + 1}]]`;
          },
        }
      : {}),
  };
  const bodyText = body ? plainText(body, flags, hooks) : '';
  const prompts = interactions.flatMap((interaction) => {
    const prompt = child(interaction, 'qti-prompt');
    return prompt ? [plainText(prompt, flags, hooks)] : [];
  });
  question.text = [bodyText, ...prompts].filter((part) => part !== '').join('\n\n');
  const explanation = explanationOf(item, flags);
  if (explanation) question.explanation = explanation;
  if (elements(item, 'qti-template-declaration').length > 0) flags.templates = true;
  if (item.attributes.adaptive === 'true') note(question.lost, 'adaptive (several tries) marking');

  const where = (element: XmlElement) => `${path}, line ${element.line}: <${sourceName(element)}>`;
  if (interactions.length === 0) {
    question.problems.push(`${path}: no interaction: nothing to answer`);
  } else if (blanks) {
    question.sourceType = [...new Set(interactions.map(sourceName))].join(' + ');
    question.shape = 'blanks';
    readBlanks(item, interactions, question, flags, where);
  } else if (interactions.length > 1) {
    question.sourceType = interactions.map(sourceName).join(' + ');
    question.problems.push(
      `${path}: ${interactions.length} interactions in one item (${[...new Set(interactions.map(sourceName))].join(', ')}): only items with one are read`,
    );
  } else {
    const interaction = interactions[0]!;
    question.sourceType = sourceName(interaction);
    question.shape = isTabular(interaction) ? 'matrix' : (SHAPES[interaction.name] ?? null);
    if (!question.shape) {
      question.problems.push(`${where(interaction)}: this kind of interaction has no question type here`);
    } else {
      readInteraction(item, interaction, question, flags, where(interaction), pictures);
    }
  }
  for (const what of lostOf(flags)) note(question.lost, what);
  if (!question.text) question.problems.push(`${path}: the item has no text`);
  return question;
}

/** What a standalone item or test is called in the preview, with no package path to name it by. */
const standaloneName = (root: XmlElement, what: string) => {
  const id = root.attributes.identifier?.trim();
  return id ? `the ${what} "${id.slice(0, 80)}"` : `the ${what}`;
};

/**
 * A QTI 3.0 or 2.x item, or a test, sent as one XML file rather than a package. An item is read
 * as it is in a package (its pictures, which are other files, named as lost); a test names its
 * items in other files, so each is listed as not in this file, with how to send the package.
 */
export function readQtiDocument(root: XmlElement): SourceBank {
  const local = root.name.slice(root.name.indexOf(':') + 1);
  if (local === 'assessmentItem' || local === 'qti-assessment-item') {
    return {
      format: 'qti',
      questions: [readItemElement(root, standaloneName(root, 'item'), new Map())],
      problems: [],
    };
  }
  const test = normalise(root, local === 'assessmentTest' ? 2 : 3);
  const at = standaloneName(root, 'test');
  const refs = descendants(test, 'qti-assessment-item-ref');
  if (refs.length === 0) throw new UnreadableBank(`${at} names no items`);
  if (refs.length > QTI_ITEMS_MAX) {
    throw new UnreadableBank(
      `${at} names ${refs.length} items, more than the ${QTI_ITEMS_MAX} one import takes`,
    );
  }
  const questions = refs.map((ref, index): SourceQuestion => {
    const href = ref.attributes.href ?? ref.attributes.identifier ?? `item ${index + 1}`;
    return {
      at: `${at}, item ${index + 1} (line ${ref.line})`,
      sourceType: 'qti item',
      shape: null,
      text: '',
      grade: 1,
      answers: [],
      lost: [],
      problems: [
        `${at} names "${href.slice(0, 120)}", which is in another file: upload the whole QTI package (the zip with imsmanifest.xml, the test and its items)`,
      ],
    };
  });
  return { format: 'qti', questions, problems: [] };
}

/** A file of the package as text (UTF-8, with or without its byte-order mark). */
function decode(bytes: Buffer, path: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UnreadableBank(`"${path}" is not UTF-8 text`);
  }
}

/**
 * A manifest's or test's `href` as a package path: a bad percent-escape (`%zz`, a lone `%`) is the
 * file's fault, said as such, not an uncaught `URIError`.
 */
function hrefPath(base: string, href: string, where: string): string {
  let decoded: string;
  try {
    decoded = decodeURI(href);
  } catch {
    throw new UnreadableBank(
      `${where}: the href "${href.slice(0, 120)}" has a bad percent-escape (write a % as %25, or %XX with two hex digits)`,
    );
  }
  return posix.normalize(posix.join(base, decoded));
}

/** Item paths in the order the package gives them: each test's, then the manifest's. */
async function itemPaths(zip: ZipPackage, manifest: XmlElement, problems: string[]): Promise<string[]> {
  const resources = descendants(manifest, 'resource');
  const hrefOf = (resource: XmlElement) => {
    const base = resource.attributes['xml:base'] ?? '';
    const href = resource.attributes.href ?? child(resource, 'file')?.attributes.href;
    return href === undefined ? undefined : hrefPath(base, href, MANIFEST);
  };
  const ordered: string[] = [];
  const add = (path: string | undefined) => {
    if (path !== undefined && !ordered.includes(path)) ordered.push(path);
  };
  for (const resource of resources) {
    const type = resource.attributes.type ?? '';
    if (/^imsqti_xmlv1p/.test(type) || /^imsqti_(item|test|assessment)_xmlv1p/.test(type)) {
      note(problems, `${MANIFEST}: QTI 1.2 resources are not read: export the questions as QTI 2.1 or 3.0`);
    }
    if (!/^imsqti_test_xmlv[23]/.test(type)) continue;
    const path = hrefOf(resource);
    if (path === undefined || !zip.paths.includes(path)) {
      problems.push(
        `${MANIFEST}: the test "${path ?? resource.attributes.identifier ?? ''}" is not in the package`,
      );
      continue;
    }
    const raw = readXml(decode(await zip.read(path), path));
    const test = normalise(raw, raw.name.endsWith('assessmentTest') ? 2 : 3);
    for (const ref of descendants(test, 'qti-assessment-item-ref')) {
      if (ref.attributes.href) add(hrefPath(posix.dirname(path), ref.attributes.href, path));
    }
  }
  for (const resource of resources) {
    if (/^imsqti_item_xmlv[23]/.test(resource.attributes.type ?? '')) add(hrefOf(resource));
  }
  return ordered;
}

/**
 * A QTI 3.0 or 2.x content package, read whole within the zip reader's bounds; an
 * `UnreadableBank` when the zip or its manifest cannot be read, else a bank whose questions
 * each say what they become and what they lose.
 */
export async function readQtiPackage(bytes: Uint8Array): Promise<SourceBank> {
  const zip = await openZip(bytes);
  try {
    if (!zip.paths.includes(MANIFEST)) {
      const nested = zip.paths.find((path) => path.endsWith(`/${MANIFEST}`));
      throw new UnreadableBank(
        nested
          ? `${MANIFEST} is in "${posix.dirname(nested)}/", not at the top of the zip: zip the package's contents, not its folder`
          : `the zip has no ${MANIFEST}: it is not a QTI content package (export the questions as a QTI 3.0 or 2.1 package)`,
      );
    }
    const manifest = readXml(decode(await zip.read(MANIFEST), MANIFEST));
    if (manifest.name.slice(manifest.name.indexOf(':') + 1) !== 'manifest') {
      throw new UnreadableBank(`${MANIFEST}: the root element is <${manifest.name}>, not <manifest>`);
    }
    const problems: string[] = [];
    const paths = await itemPaths(zip, normalise(manifest, 3), problems);
    if (paths.length === 0) {
      throw new UnreadableBank(`${MANIFEST} lists no QTI 2.x or 3.0 items`);
    }
    if (paths.length > QTI_ITEMS_MAX) {
      throw new UnreadableBank(
        `the package holds ${paths.length} items, more than the ${QTI_ITEMS_MAX} one import takes`,
      );
    }
    const questions: SourceQuestion[] = [];
    for (const path of paths) {
      if (!zip.paths.includes(path)) {
        questions.push({
          at: path,
          sourceType: 'qti item',
          shape: null,
          text: '',
          grade: 1,
          answers: [],
          lost: [],
          problems: [`${MANIFEST} names "${path}", which is not in the package`],
        });
        continue;
      }
      const source = decode(await zip.read(path), path);
      const files = new Map<string, Uint8Array>();
      for (const picture of picturePaths(source, path)) {
        if (zip.paths.includes(picture)) files.set(picture, await zip.read(picture));
      }
      questions.push(readQtiItem(source, path, files));
    }
    return { format: 'qti', questions, problems };
  } finally {
    zip.close();
  }
}

/**
 * The package read as `readQtiPackage` reads it, a package that cannot be read refused as bad
 * input naming `field` (the upload's id, or the form's file), with nothing stored.
 */
export async function readPackageBank(bytes: Uint8Array, field = 'upload_id'): Promise<SourceBank> {
  try {
    return await readQtiPackage(bytes);
  } catch (error) {
    if (error instanceof UnreadableBank) {
      throw invalidInput([{ field, message: `QTI package: ${error.message}` }], 'Nothing was imported');
    }
    throw error;
  }
}
