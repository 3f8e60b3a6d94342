import { parse } from 'csv-parse/sync';
import { QUESTION_TYPE_DEFINITIONS, type ImportShape } from '../question-types';
import { UnreadableBank, type SourceAnswer, type SourceBank, type SourceQuestion } from './bank';

/**
 * Our own CSV layout (the API reference's "Importing questions"; a template at
 * /docs/import-template.csv): a header row, then one question per row.
 *
 *   type, text, answer, points, tolerance, explanation, option_1 ... option_20
 *
 * `type` is one of our question types; what `answer` holds depends on the shape that type is
 * imported as (CSV_ANSWERS). Lists in a cell are separated by |.
 */
export const CSV_COLUMNS = ['type', 'text', 'answer', 'points', 'tolerance', 'explanation'] as const;
const OPTION_COLUMNS_MAX = 20;

/** What `answer` holds for each shape the layout can carry, as the API reference says it. */
export const CSV_ANSWERS: Partial<Record<ImportShape, string>> = {
  truth: 'yes or no',
  one_choice: "the right option's number or letter",
  many_choices: "the right options' numbers or letters, separated by |, each worth the points",
  text_answers: 'the accepted answers, separated by |',
  numeric: 'the value, within tolerance',
};

/** One example row per shape, after its type: text, answer, points, tolerance, explanation, options. */
const EXAMPLES: Partial<Record<ImportShape, string>> = {
  truth: 'Is Rome the capital of Italy?,yes,1,,It has been since 1871.,,,,',
  one_choice: 'Which planet is largest?,C,1,,,Mars,Earth,Jupiter,Venus',
  many_choices: 'Which numbers are prime?,1|2,1,,Each right tick earns the points.,2,3,4,6',
  text_answers: 'Name the largest ocean.,Pacific|Pacific Ocean,1,,,,,,',
  numeric: 'What is 7 × 8?,56,1,0,,,,,',
};

/** The types the layout can carry, with the shape each is read as. */
const csvTypes = () =>
  QUESTION_TYPE_DEFINITIONS.flatMap((definition) =>
    definition.importing && CSV_ANSWERS[definition.importing.shape]
      ? [{ name: definition.name, shape: definition.importing.shape }]
      : [],
  );

/** What `answer` holds per type, for the API reference. */
export const csvAnswerOfEachType = () =>
  csvTypes().map(({ name, shape }) => ({ type: name, answer: CSV_ANSWERS[shape]! }));

/** The downloadable template: the header and one example row per type the layout carries. */
export function csvTemplate(): string {
  const rows = csvTypes().map(({ name, shape }) => `${name},${EXAMPLES[shape]!}`);
  const choice = csvTypes().find(({ shape }) => shape === 'one_choice');
  if (choice)
    rows.push(
      `"${choice.name}","A text with a comma, or ""quotes"", goes in double quotes.",1,1,,,Right,Wrong,,`,
    );
  return [
    ['type,text,answer,points,tolerance,explanation', ...[1, 2, 3, 4].map((n) => `option_${n}`)].join(','),
    ...rows,
    '',
  ].join('\r\n');
}

/** Does this first line look like our header? */
export function looksLikeOurCsv(text: string): boolean {
  const first = text.replace(/^\ufeff/, '').split(/\r?\n/, 1)[0] ?? '';
  const names = first.split(/[,;\t]/).map((name) => name.trim().replace(/^"|"$/g, '').toLowerCase());
  return names.includes('type') && names.includes('text');
}

/** An option named by its number (1 for the first) or letter (A). */
function optionIndex(value: string, count: number): number | null {
  const trimmed = value.trim();
  const index = /^\d+$/.test(trimmed)
    ? Number(trimmed) - 1
    : /^[a-t]$/i.test(trimmed)
      ? trimmed.toUpperCase().charCodeAt(0) - 65
      : -1;
  return index >= 0 && index < count ? index : null;
}

export function readCsv(source: string): SourceBank {
  const text = source.replace(/^\ufeff/, '');
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, {
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      delimiter:
        [',', ';', '\t'].find((delimiter) => (text.split(/\r?\n/, 1)[0] ?? '').includes(delimiter)) ?? ',',
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UnreadableBank(`the CSV cannot be read: ${message}`);
  }
  const [header, ...rows] = records;
  if (!header) throw new UnreadableBank('the CSV is empty: start with the header row of the template');
  const names = header.record.map((name) => name.trim().toLowerCase());
  const problems: string[] = [];
  const known = (name: string) =>
    (CSV_COLUMNS as readonly string[]).includes(name) ||
    (/^option_(\d+)$/.test(name) &&
      Number(name.slice(7)) >= 1 &&
      Number(name.slice(7)) <= OPTION_COLUMNS_MAX);
  names.forEach((name, column) => {
    if (name !== '' && !known(name)) {
      problems.push(`line 1, column ${column + 1}: "${name}" is not a column of the layout; left out`);
    }
  });
  for (const required of ['type', 'text']) {
    if (!names.includes(required)) throw new UnreadableBank(`line 1: the header has no "${required}" column`);
  }
  const cell = (record: string[], name: string) => {
    const at = names.indexOf(name);
    return at >= 0 ? (record[at] ?? '').trim() : '';
  };
  const types = csvTypes();
  const questions = rows.map(({ record, info }): SourceQuestion => {
    const at = `line ${info.lines}`;
    const type = cell(record, 'type').toLowerCase();
    const shape = types.find((known) => known.name === type)?.shape ?? null;
    const question: SourceQuestion = {
      at,
      sourceType: type || '(no type)',
      shape,
      text: cell(record, 'text'),
      grade: 1,
      answers: [],
      lost: [],
      problems: [],
    };
    const explanation = cell(record, 'explanation');
    if (explanation) question.explanation = explanation;
    if (!shape) {
      question.problems.push(
        `${at}: type "${type}" is not one of ${types.map((known) => known.name).join(', ')}`,
      );
      return question;
    }
    const points = cell(record, 'points');
    if (points !== '') {
      if (!/^\d+$/.test(points)) question.problems.push(`${at}: points must be a whole number of 0 or more`);
      else question.grade = Number(points);
    }
    const answer = cell(record, 'answer');
    const options = names.flatMap((name, column) =>
      /^option_\d+$/.test(name) && (record[column] ?? '').trim() !== ''
        ? [(record[column] ?? '').trim()]
        : [],
    );
    const right = (index: number, list: Set<number>): SourceAnswer => ({
      text: options[index]!,
      fraction: list.has(index) ? 100 : 0,
    });
    const wrong = () => question.problems.push(`${at}: answer must be ${CSV_ANSWERS[shape]}`);
    switch (shape) {
      case 'truth':
        if (!/^(yes|no)$/i.test(answer)) wrong();
        else question.answers = [{ text: /^yes$/i.test(answer) ? 'true' : 'false', fraction: 100 }];
        break;
      case 'one_choice':
      case 'many_choices': {
        const picked = answer.split('|').map((value) => optionIndex(value, options.length));
        if (options.length < 2) {
          question.problems.push(`${at}: give at least 2 options, in option_1, option_2 and so on`);
        } else if (answer === '' || picked.some((index) => index === null)) {
          wrong();
        } else if (shape === 'one_choice' && picked.length > 1) {
          const several = types.find((known) => known.shape === 'many_choices');
          question.problems.push(
            `${at}: name one right option${several ? `, or make it ${several.name}` : ''}`,
          );
        } else {
          const rights = new Set(picked as number[]);
          question.answers = options.map((_, index) => right(index, rights));
        }
        break;
      }
      case 'text_answers':
        question.answers = answer
          .split('|')
          .map((value) => value.trim())
          .filter((value) => value !== '')
          .map((value) => ({ text: value, fraction: 100 }));
        break;
      case 'numeric': {
        const value = Number(answer);
        const tolerance = cell(record, 'tolerance') === '' ? 0 : Number(cell(record, 'tolerance'));
        if (answer === '' || !Number.isFinite(value)) wrong();
        else if (!Number.isFinite(tolerance) || tolerance < 0) {
          question.problems.push(`${at}: tolerance must be a number of 0 or more`);
        } else question.answers = [{ text: String(value), fraction: 100, tolerance }];
        break;
      }
      default:
        break;
    }
    return question;
  });
  return { format: 'csv', questions, problems };
}
