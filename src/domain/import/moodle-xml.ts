import type { ImportShape } from '../question-types';
import {
  DEFAULT_IMAGE_ALT,
  categoryLost,
  note,
  UnreadableBank,
  type SourceBank,
  type SourceImage,
  type SourceQuestion,
  CHANGES,
  noteChange,
} from './bank';
import { readCloze } from './cloze';
import { decodeEntities, htmlToText, replaceTags, tidy } from './html-text';
import { child, elements, readXml, textChild, textOf, type XmlElement } from './xml';

/**
 * Moodle XML (`<quiz><question type="...">`), Moodle's richest format. Its types map to ours; the
 * ones with no type of ours yet are read and reported as such.
 */
// Pairs, not an object's keys: Moodle's names (matching, ordering, essay) are some of ours too,
// and these name Moodle's, not our types' table entries.
const SHAPES: ReadonlyMap<string, ImportShape> = new Map<string, ImportShape>([
  ['truefalse', 'truth'],
  ['multichoice', 'one_choice'],
  ['shortanswer', 'text_answers'],
  ['numerical', 'numeric'],
  ['matching', 'pairs'],
  ['ordering', 'sequence'],
  ['multianswer', 'blanks'],
  ['essay', 'open'],
  ['calculated', 'formula'],
  ['calculatedsimple', 'formula'],
]);

/** Moodle's question types as the API reference lists them, with the shape each is read as. */
export const MOODLE_TYPES: ReadonlyArray<readonly [string, ImportShape]> = [
  ['truefalse', 'truth'],
  ['multichoice with one right answer', 'one_choice'],
  ['multichoice with several', 'many_choices'],
  ['shortanswer', 'text_answers'],
  ['numerical (with its tolerance)', 'numeric'],
  ['matching', 'pairs'],
  ['ordering', 'sequence'],
  ['multianswer (cloze)', 'blanks'],
  ['essay', 'open'],
  ['calculated and calculatedsimple (one formula, uniform wildcards)', 'formula'],
];

/**
 * Moodle's ordering gradings that give each item in its right place its share of the grade, and
 * the one that gives the grade for the whole order only; any other counts pairs or runs of items,
 * which points per item in place stand in for.
 */
const PER_ITEM_GRADING = 'ABSOLUTE_POSITION';
const WHOLE_ORDER_GRADING = 'ALL_OR_NOTHING';

/** The root elements of formats this reader does not take, for a clearer refusal. */
const OTHER_ROOTS: Readonly<Record<string, string>> = {
  manifest: 'an IMS content package manifest, without the files it lists: upload the whole package (the zip)',
  questestinterop:
    'a QTI 1.2 document, which cannot be imported: export the questions as QTI 2.1 or 3.0, Moodle XML, GIFT or Aiken',
};
/** QTI items and tests, read by the QTI reader instead (assemble.ts). */
const QTI_ROOTS = new Set(['assessmentItem', 'assessmentTest', 'qti-assessment-item', 'qti-assessment-test']);

/**
 * XML whose root is a QTI item or test, handed to a reader of another format (Moodle XML): the
 * text is read as QTI instead (assemble.ts), from the root already parsed.
 */
export class QtiDocument extends UnreadableBank {
  constructor(
    message: string,
    readonly root: XmlElement,
  ) {
    super(message);
  }
}

const IMG = /<img\b[^>]*>/gi;
const attribute = (tag: string, name: string) =>
  new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i')
    .exec(tag)
    ?.slice(1)
    .find((v) => v !== undefined);

/**
 * The first `<img>` of a text whose file the element carries (`<file name encoding="base64">`,
 * named `@@PLUGINFILE@@/name` in the HTML): taken out of the HTML as the picture of `at`. Any
 * other picture stays behind, named as lost.
 */
function takeImage(
  element: XmlElement,
  raw: string,
  question: SourceQuestion,
  what: string,
): { html: string; image?: SourceImage } {
  const files = new Map(elements(element, 'file').map((file) => [file.attributes.name ?? '', file] as const));
  let image: SourceImage | undefined;
  const html = replaceTags(raw, IMG, (tag) => {
    if (image) return tag;
    const src = attribute(tag, 'src') ?? '';
    const name = /^@@PLUGINFILE@@\/(.+)$/.exec(decodeEntities(src))?.[1];
    let decoded = name;
    try {
      decoded = name === undefined ? undefined : decodeURIComponent(name);
    } catch {
      // A malformed escape: the name as written.
    }
    const file = decoded === undefined ? undefined : (files.get(decoded) ?? files.get(name!));
    if (!file || (file.attributes.encoding ?? 'base64') !== 'base64') return tag;
    const alt = decodeEntities(attribute(tag, 'alt') ?? '').trim();
    if (!alt) note(question.lost, `alt text of ${what}'s picture (given "${DEFAULT_IMAGE_ALT}")`);
    image = {
      name: decoded!,
      alt: alt || null,
      bytes: Buffer.from(textOf(file).replace(/\s+/g, ''), 'base64'),
    };
    return '';
  });
  return { html, ...(image ? { image } : {}) };
}

/** A Moodle text element's raw text and format, with its first carried picture taken out. */
function rawText(element: XmlElement, question: SourceQuestion, what: string) {
  const raw = textOf(child(element, 'text') ?? element);
  const format = element.attributes.format ?? 'html';
  const taken =
    format === 'html' || format === 'moodle_auto_format'
      ? takeImage(element, raw, question, what)
      : { html: raw };
  return { format, ...taken };
}

/** Text in a Moodle format, read as plain text, noting what its HTML and files lose. */
function plainText(raw: string, format: string, question: SourceQuestion): string {
  if (raw.includes('@@PLUGINFILE@@')) note(question.lost, 'images');
  if (format === 'plain_text') return tidy(raw);
  if (format === 'markdown') {
    if (/[*_#`[]/.test(raw)) note(question.lost, 'formatting (Markdown)');
    return tidy(raw);
  }
  const text = htmlToText(raw);
  if (text.images) note(question.lost, 'images');
  if (text.formatting) note(question.lost, 'formatting (HTML)');
  if (text.entities) noteChange(question, CHANGES.entities);
  return text.text;
}

/** A Moodle text element read as plain text (its pictures named as lost). */
function plain(parent: XmlElement, name: string, question: SourceQuestion): string {
  const element = child(parent, name);
  if (!element) return '';
  return plainText(textOf(child(element, 'text') ?? element), element.attributes.format ?? 'html', question);
}

function numberIn(element: XmlElement | undefined): number | undefined {
  const text = textOf(element).trim();
  if (text === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : NaN;
}

/** Moodle's export writes its multianswer (cloze) questions as type="cloze"; its import takes both. */
const TYPE_ALIASES: Readonly<Record<string, string>> = { cloze: 'multianswer' };

function readQuestion(element: XmlElement, index: number): SourceQuestion | null {
  const written = element.attributes.type ?? '';
  const type = TYPE_ALIASES[written] ?? written;
  if (type === 'category') return null;
  const at = `<question> ${index} (line ${element.line})`;
  const question: SourceQuestion = {
    at,
    sourceType: written || '(no type)',
    shape: SHAPES.get(type) ?? null,
    text: '',
    grade: 1,
    answers: [],
    lost: [],
    problems: [],
  };
  const name = tidy(textChild(element, 'name'));
  if (name) question.name = name;
  const stem = child(element, 'questiontext');
  let clozeWeight = 0;
  if (stem) {
    const { format, html, image } = rawText(stem, question, 'the question');
    if (image) question.image = image;
    if (type === 'multianswer') {
      const cloze = readCloze(html, format, at, question, plainText);
      question.text = cloze.text;
      clozeWeight = cloze.weight;
    } else question.text = plainText(html, format, question);
  }
  const explanation = plain(element, 'generalfeedback', question);
  if (explanation) question.explanation = explanation;
  if (!SHAPES.has(type)) {
    question.problems.push(
      type === 'description'
        ? `${at}: a description, not a question`
        : `${at}: Moodle's ${type || 'untyped'} questions have no type here`,
    );
    return question;
  }

  const grade = numberIn(child(element, 'defaultgrade'));
  if (grade !== undefined) {
    if (Number.isNaN(grade) || grade < 0)
      question.problems.push(`${at}: <defaultgrade> must be a number of 0 or more`);
    else question.grade = grade;
  }
  const penalty = numberIn(child(element, 'penalty'));
  if (penalty !== undefined && penalty > 0) note(question.lost, 'penalty per try');
  for (const combined of ['correctfeedback', 'partiallycorrectfeedback', 'incorrectfeedback']) {
    if (textChild(element, combined).trim()) note(question.lost, 'combined feedback');
  }
  if (elements(element, 'hint').length > 0) note(question.lost, 'hints');
  if (type === 'shortanswer' && textOf(child(element, 'usecase')).trim() === '1') {
    note(question.lost, 'case-sensitive matching');
  }
  if (type === 'numerical' && elements(child(element, 'units') ?? element, 'unit').length > 0) {
    note(question.lost, 'units');
  }

  if (type === 'multianswer') {
    if (question.shape === 'blanks') fitClozeGrade(question, grade, clozeWeight);
    return question;
  }
  if (question.shape === 'pairs') return readMatching(element, question);
  if (question.shape === 'open') return readEssay(element, question);
  if (question.shape === 'formula') return readCalculated(element, question);

  elements(element, 'answer').forEach((answer, position) => {
    const where = `${at}, <answer> ${position + 1} (line ${answer.line})`;
    const fraction = Number(answer.attributes.fraction ?? '0');
    if (!Number.isFinite(fraction)) {
      question.problems.push(`${where}: fraction "${answer.attributes.fraction}" is not a number`);
      return;
    }
    if (textChild(answer, 'feedback').trim()) note(question.lost, 'feedback per answer');
    const read = rawText(answer, question, `answer ${position + 1}`);
    const text = plainText(read.html, read.format, question);
    if (read.image) {
      question.answers.push({ text, fraction, image: read.image });
      return;
    }
    if (type === 'numerical') {
      if (text === '*') return note(question.lost, 'an answer for any other number');
      const value = Number(text);
      const tolerance = numberIn(child(answer, 'tolerance')) ?? 0;
      if (text === '' || !Number.isFinite(value) || Number.isNaN(tolerance)) {
        question.problems.push(`${where}: "${text}" is not a number with a numeric <tolerance>`);
        return;
      }
      question.answers.push({ text: String(value), fraction, tolerance: Math.abs(tolerance) });
      return;
    }
    question.answers.push({ text, fraction });
  });

  if (type === 'truefalse') {
    const right = question.answers.find((answer) => answer.fraction > 0);
    const truth = right?.text.trim().toLowerCase();
    if (truth !== 'true' && truth !== 'false') {
      question.problems.push(`${at}: no <answer> "true" or "false" with fraction 100`);
      question.answers = [];
    } else question.answers = [{ text: truth, fraction: 100 }];
  }
  if (question.shape === 'sequence') readOrdering(element, question);
  if (type === 'multichoice') {
    const single = textOf(child(element, 'single')).trim().toLowerCase();
    if (single === 'false' || single === '0') question.shape = 'many_choices';
  }
  return question;
}

/** Moodle's tolerance types: 1 relative, 2 nominal (absolute), 3 geometric. */
const RELATIVE_TOLERANCE = '1';
const NOMINAL_TOLERANCE = '2';

/**
 * A calculated or calculatedsimple question: its best answer's formula over `{name}` wildcards,
 * each wildcard's uniform range and decimals from its dataset_definition. What no question of
 * ours holds is named as lost: other answers, units, shared or log-uniform datasets, a geometric
 * tolerance (read as relative), the decimals its right answer is shown with.
 */
function readCalculated(element: XmlElement, question: SourceQuestion): SourceQuestion {
  const answers = elements(element, 'answer').map((answer) => ({
    answer,
    fraction: Number(answer.attributes.fraction ?? '0'),
  }));
  const best = answers
    .filter((each) => Number.isFinite(each.fraction))
    .sort((a, b) => b.fraction - a.fraction)[0];
  if (!best || best.fraction <= 0) {
    question.problems.push(`${question.at}: no <answer> with a formula and a fraction above 0`);
    return question;
  }
  if (answers.length > 1) note(question.lost, 'other answers (only the best one is kept)');
  if (answers.some(({ answer }) => textChild(answer, 'feedback').trim()))
    note(question.lost, 'feedback per answer');
  if (elements(child(element, 'units') ?? element, 'unit').length > 0) note(question.lost, 'units');
  const formula = textOf(child(best.answer, 'text') ?? best.answer)
    .trim()
    .replace(/\{([A-Za-z][A-Za-z0-9_]*)\}/g, '$1');
  const tolerance = Math.abs(numberIn(child(best.answer, 'tolerance')) ?? 0);
  const kind = textOf(child(best.answer, 'tolerancetype')).trim() || RELATIVE_TOLERANCE;
  if (kind !== RELATIVE_TOLERANCE && kind !== NOMINAL_TOLERANCE) {
    note(question.lost, 'a geometric tolerance (read as relative)');
  }
  if (textOf(child(best.answer, 'correctanswerlength')).trim()) {
    note(question.lost, 'the decimals its right answer is shown with');
  }
  const variables: Array<{ name: string; min: number; max: number; decimals: number }> = [];
  for (const definition of elements(child(element, 'dataset_definitions') ?? element, 'dataset_definition')) {
    const name = textChild(definition, 'name').trim();
    const min = Number(textChild(definition, 'minimum').trim());
    const max = Number(textChild(definition, 'maximum').trim());
    const decimals = Number(textChild(definition, 'decimals').trim() || '0');
    if (textChild(definition, 'status').trim() === 'shared')
      note(question.lost, 'shared datasets (read as its own)');
    const distribution = textChild(definition, 'distribution').trim();
    if (distribution && distribution !== 'uniform')
      note(question.lost, `a ${distribution} distribution (read as uniform)`);
    if (elements(child(definition, 'dataset_items') ?? definition, 'dataset_item').length > 0) {
      note(question.lost, 'its stored datasets (each attempt draws its own)');
    }
    if (!name || !Number.isFinite(min) || !Number.isFinite(max) || !Number.isInteger(decimals)) {
      question.problems.push(
        `${question.at}: a <dataset_definition> without a name, a numeric minimum and maximum and whole decimals`,
      );
      continue;
    }
    variables.push({ name, min, max, decimals });
  }
  question.answers = [{ text: formula, fraction: best.fraction, tolerance }];
  question.formula = {
    formula,
    variables,
    tolerance,
    toleranceType: kind === NOMINAL_TOLERANCE ? 'absolute' : 'relative',
  };
  return question;
}

/**
 * An ordering question: Moodle numbers each item's right place in its `fraction` (1, 2, 3...).
 * The items are put in that order, each with its share of the grade: 100 each when only the whole
 * order earns it, 100 / n each when every item in its place earns its part.
 */
function readOrdering(element: XmlElement, question: SourceQuestion): void {
  const grading = textOf(child(element, 'gradingtype')).trim().toUpperCase();
  const selectType = textOf(child(element, 'selecttype')).trim().toUpperCase();
  const selectCount = Number(textOf(child(element, 'selectcount')).trim() || '0');
  if ((selectType && selectType !== 'ALL') || selectCount > 0)
    note(question.lost, 'showing only some of the items');
  if (grading && grading !== PER_ITEM_GRADING && grading !== WHOLE_ORDER_GRADING) {
    note(question.lost, 'grading by items next to each other (points per item in place instead)');
  }
  const items = [...question.answers].sort((a, b) => a.fraction - b.fraction);
  const share = grading === WHOLE_ORDER_GRADING ? 100 : items.length === 0 ? 0 : 100 / items.length;
  question.answers = items.map((item) => ({ text: item.text, fraction: share }));
}

/**
 * A matching question: each `<subquestion>` with a text is a prompt and its `<answer>` the match;
 * one with an empty text is a match of no prompt (a distractor).
 */
function readMatching(element: XmlElement, question: SourceQuestion): SourceQuestion {
  const list: Array<{ prompt: string; match: string }> = [];
  const extra: string[] = [];
  elements(element, 'subquestion').forEach((sub, index) => {
    const prompt = plainText(textOf(child(sub, 'text') ?? sub), sub.attributes.format ?? 'html', question);
    const answer = child(sub, 'answer');
    const match = answer
      ? plainText(textOf(child(answer, 'text') ?? answer), answer.attributes.format ?? 'plain_text', question)
      : '';
    if (!match) {
      question.problems.push(
        `${question.at}, <subquestion> ${index + 1} (line ${sub.line}): no <answer> text`,
      );
    } else if (prompt) list.push({ prompt, match });
    else extra.push(match);
  });
  question.pairs = { list, extra };
  return question;
}

/** An essay: its grade is its points; its word limits are read, what only Moodle does is named. */
function readEssay(element: XmlElement, question: SourceQuestion): SourceQuestion {
  const words = (name: string) => {
    const value = numberIn(child(element, name));
    return value !== undefined && Number.isInteger(value) && value > 0 ? value : null;
  };
  question.essay = { minWords: words('minwordlimit'), maxWords: words('maxwordlimit') };
  if (textChild(element, 'graderinfo').trim()) note(question.lost, 'information for graders');
  if (textChild(element, 'responsetemplate').trim()) note(question.lost, 'a response template');
  if ((numberIn(child(element, 'attachments')) ?? 0) !== 0) note(question.lost, 'file attachments');
  return question;
}

/**
 * A cloze question's embedded answers carry their own weights: Moodle gives each its weight's
 * share of the question's grade, so a blank is worth grade × weight / (sum of all the weights,
 * those of answers named as lost included).
 */
function fitClozeGrade(question: SourceQuestion, grade: number | undefined, total: number): void {
  const blanks = question.blanks ?? [];
  const kept = blanks.reduce((sum, blank) => sum + blank.grade, 0);
  if (grade === undefined || Number.isNaN(grade) || total === 0 || (grade === total && kept === total))
    return;
  question.blanks = blanks.map((blank) => ({ ...blank, grade: (grade * blank.grade) / total }));
}

export function readMoodleXml(source: string): SourceBank {
  const root = readXml(source);
  if (root.name !== 'quiz') {
    const local = root.name.replace(/^[a-z]+:/, '');
    if (QTI_ROOTS.has(local)) throw new QtiDocument(`this is a QTI <${local}>, not Moodle XML`, root);
    const other = OTHER_ROOTS[local];
    throw new UnreadableBank(
      other
        ? `this is ${other}`
        : `line ${root.line}: the root element is <${root.name}>, not Moodle XML's <quiz>`,
    );
  }
  const questions: SourceQuestion[] = [];
  const problems: string[] = [];
  let category = '';
  elements(root).forEach((element, index) => {
    if (element.name !== 'question') {
      problems.push(`line ${element.line}: <${element.name}> is not a <question>; left out`);
      return;
    }
    if (element.attributes.type === 'category') {
      category = tidy(textChild(element, 'category'));
      return;
    }
    const question = readQuestion(element, index + 1);
    if (!question) return;
    if (category) note(question.lost, categoryLost(category));
    questions.push(question);
  });
  return { format: 'moodle_xml', questions, problems };
}
