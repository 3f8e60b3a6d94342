import { parse } from 'csv-parse/sync';
import {
  UnreadableBank,
  type SourceAnswer,
  type SourceBank,
  type SourceQuestion,
  type TargetType,
} from './bank';

/**
 * Our own CSV layout (the API reference's "Importing questions"; a template at
 * /docs/import-template.csv): a header row, then one question per row.
 *
 *   type, text, answer, points, tolerance, explanation, option_1 ... option_20
 *
 * `answer` is yes/no (yes_no); the right option's number or letter (multiple_choice); the right
 * options' numbers or letters separated by | (multiple_select); the accepted answers separated by
 * | (short_text); the value (number). Lists in a cell are separated by |.
 */
export const CSV_COLUMNS = ['type', 'text', 'answer', 'points', 'tolerance', 'explanation'] as const;

/** The downloadable template: the header and one example row per type. */
export const CSV_TEMPLATE = [
  'type,text,answer,points,tolerance,explanation,option_1,option_2,option_3,option_4',
  'yes_no,Is Rome the capital of Italy?,yes,1,,It has been since 1871.,,,,',
  'multiple_choice,Which planet is largest?,C,1,,,Mars,Earth,Jupiter,Venus',
  'multiple_select,Which numbers are prime?,1|2,1,,Each right tick earns the points.,2,3,4,6',
  'short_text,Name the largest ocean.,Pacific|Pacific Ocean,1,,,,,,',
  'number,What is 7 × 8?,56,1,0,,,,,',
  '"multiple_choice","A text with a comma, or ""quotes"", goes in double quotes.",1,1,,,Right,Wrong,,',
  '',
].join('\r\n');
const OPTION_COLUMNS_MAX = 20;
const TYPES: readonly TargetType[] = [
  'yes_no',
  'multiple_choice',
  'multiple_select',
  'short_text',
  'number',
  'matching',
  'ordering',
  'fill_in_blanks',
  'scale',
  'essay',
];

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
  const questions = rows.map(({ record, info }): SourceQuestion => {
    const line = info.lines;
    const at = `line ${line}`;
    const type = cell(record, 'type').toLowerCase();
    const question: SourceQuestion = {
      at,
      sourceType: type || '(no type)',
      target: (TYPES as readonly string[]).includes(type) ? (type as TargetType) : null,
      text: cell(record, 'text'),
      grade: 1,
      answers: [],
      lost: [],
      problems: [],
    };
    const explanation = cell(record, 'explanation');
    if (explanation) question.explanation = explanation;
    if (!question.target) {
      question.problems.push(`${at}: type "${type}" is not one of ${TYPES.slice(0, 5).join(', ')}`);
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
    switch (question.target) {
      case 'yes_no':
        if (!/^(yes|no)$/i.test(answer)) question.problems.push(`${at}: answer must be yes or no`);
        else question.answers = [{ text: /^yes$/i.test(answer) ? 'true' : 'false', fraction: 100 }];
        break;
      case 'multiple_choice':
      case 'multiple_select': {
        const picked = answer.split('|').map((value) => optionIndex(value, options.length));
        if (options.length < 2) {
          question.problems.push(`${at}: give at least 2 options, in option_1, option_2 and so on`);
        } else if (answer === '' || picked.some((index) => index === null)) {
          question.problems.push(
            `${at}: answer must name the right option${question.target === 'multiple_select' ? 's' : ''} by number (1 to ${options.length}) or letter${question.target === 'multiple_select' ? ', separated by |' : ''}`,
          );
        } else if (question.target === 'multiple_choice' && picked.length > 1) {
          question.problems.push(
            `${at}: a multiple_choice question has one right option: use multiple_select`,
          );
        } else {
          const rights = new Set(picked as number[]);
          question.answers = options.map((_, index) => right(index, rights));
        }
        break;
      }
      case 'short_text':
        question.answers = answer
          .split('|')
          .map((value) => value.trim())
          .filter((value) => value !== '')
          .map((value) => ({ text: value, fraction: 100 }));
        break;
      case 'number': {
        const value = Number(answer);
        const tolerance = cell(record, 'tolerance') === '' ? 0 : Number(cell(record, 'tolerance'));
        if (answer === '' || !Number.isFinite(value))
          question.problems.push(`${at}: answer must be a number`);
        else if (!Number.isFinite(tolerance) || tolerance < 0) {
          question.problems.push(`${at}: tolerance must be a number of 0 or more`);
        } else question.answers = [{ text: String(value), fraction: 100, tolerance }];
        break;
      }
      case 'matching':
      case 'ordering':
      case 'fill_in_blanks':
      case 'scale':
      case 'essay':
        break;
    }
    return question;
  });
  return { format: 'csv', questions, problems };
}
