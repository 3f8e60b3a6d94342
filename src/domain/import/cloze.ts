import type { ImportedBlank } from '../question-types';
import { note, type SourceQuestion } from './bank';

/**
 * Moodle's embedded answers (cloze, `multianswer`): `{weight:TYPE:answers}` inside the question
 * text, the answers split by `~`, each `=right` or `%50%partly right`, then `#feedback`; `\` escapes
 * the next character. Typed sub-questions (SHORTANSWER) and single-choice ones (MULTICHOICE, in any
 * layout) become our blanks; the others are listed as not held.
 */

const TYPED = new Set(['SHORTANSWER', 'SA', 'MW']);
const TYPED_CASE = new Set(['SHORTANSWER_C', 'SAC', 'MWC']);
const CHOICE = new Set(['MULTICHOICE', 'MC', 'MULTICHOICE_S', 'MCS']);
/** Radio buttons down or across the page rather than a drop-down list. */
const CHOICE_BUTTONS = new Set([
  'MULTICHOICE_V',
  'MCV',
  'MULTICHOICE_H',
  'MCH',
  'MULTICHOICE_VS',
  'MCVS',
  'MULTICHOICE_HS',
  'MCHS',
]);
const NUMERICAL = new Set(['NUMERICAL', 'NM']);
const MULTIRESPONSE = /^(MULTIRESPONSE|MR)(_H|H|_S|S|_HS|HS)?$/;

/** The start of an embedded answer: its weight (may be empty) and its type. */
const START = /\{(\d*):([A-Z_]+):/g;

/** The text up to the first unescaped character of `stops` from `from`, and where it stopped. */
function until(text: string, from: number, stops: string): { part: string; at: number } {
  let at = from;
  while (at < text.length && !stops.includes(text[at]!)) at += text[at] === '\\' ? 2 : 1;
  return { part: text.slice(from, Math.min(at, text.length)), at };
}

const unescape = (text: string) => text.replace(/\\(.)/g, '$1');

/**
 * The question's text with each embedded answer replaced by its `[[n]]` marker, read as plain
 * text by `plainText`; its blanks are set on the question, and what they cannot hold listed.
 */
export function readCloze(
  raw: string,
  format: string,
  at: string,
  question: SourceQuestion,
  plainText: (raw: string, format: string, question: SourceQuestion) => string,
): string {
  const blanks: ImportedBlank[] = [];
  let out = '';
  let last = 0;
  START.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = START.exec(raw))) {
    const type = match[2]!;
    const body = until(raw, START.lastIndex, '}');
    if (body.at >= raw.length) {
      question.problems.push(`${at}: an embedded answer {${match[1]}:${type}:… never closes with }`);
      break;
    }
    const n = blanks.length + 1;
    const where = `${at}, embedded answer ${n} (${type})`;
    const weight = match[1] === '' ? 1 : Number(match[1]);
    const blank = readBlank(body.part, type, weight, where, format, question, plainText);
    out += raw.slice(last, match.index);
    if (blank) {
      blanks.push(blank);
      out += `[[${blanks.length}]]`;
    } else out += '_____';
    last = body.at + 1;
    START.lastIndex = last;
  }
  out += raw.slice(last);
  if (blanks.length === 0 && question.problems.length === 0) {
    question.problems.push(`${at}: no embedded answers ({1:SHORTANSWER:=…}) in the text`);
  }
  question.blanks = blanks;
  return plainText(out, format, question);
}

function readBlank(
  body: string,
  type: string,
  grade: number,
  where: string,
  format: string,
  question: SourceQuestion,
  plainText: (raw: string, format: string, question: SourceQuestion) => string,
): ImportedBlank | null {
  const typed = TYPED.has(type) || TYPED_CASE.has(type);
  const choice = CHOICE.has(type) || CHOICE_BUTTONS.has(type);
  if (!typed && !choice) {
    question.problems.push(
      NUMERICAL.has(type)
        ? `${where}: a number with a tolerance cannot be a blank here (blanks are typed text or one choice from a list)`
        : MULTIRESPONSE.test(type)
          ? `${where}: several right choices cannot be a blank here (blanks are typed text or one choice from a list)`
          : `${where}: not a type of embedded answer Moodle knows`,
    );
    return null;
  }
  if (TYPED_CASE.has(type)) note(question.lost, 'case-sensitive matching');
  if (CHOICE_BUTTONS.has(type)) note(question.lost, 'choices shown as buttons (a blank shows a list)');
  const answers: Array<{ text: string; fraction: number }> = [];
  let at = 0;
  while (at <= body.length) {
    const { part, at: end } = until(body, at, '~');
    let rest = part.trim();
    let fraction = 0;
    const weight = /^%(-?\d+(?:[.,]\d*)?)%/.exec(rest);
    if (rest.startsWith('=')) {
      fraction = 100;
      rest = rest.slice(1);
    } else if (weight) {
      fraction = Number(weight[1]!.replace(',', '.'));
      rest = rest.slice(weight[0].length);
    }
    const text = until(rest, 0, '#');
    if (unescape(rest.slice(text.at + 1)).trim()) note(question.lost, 'feedback per answer');
    const value = plainText(unescape(text.part), format, question);
    if (value !== '') answers.push({ text: value, fraction });
    at = end + 1;
  }
  if (!answers.some((answer) => answer.fraction > 0)) {
    question.problems.push(`${where}: no right answer (write one as =answer)`);
    return null;
  }
  return { grade, choice, answers };
}
