import type { ImportedBlank, ImportShape } from '../question-types';
import { note, type SourceAnswer, type SourceQuestion } from './bank';

/**
 * Moodle's embedded answers (cloze, `multianswer`): `{weight:TYPE:answers}` inside the question
 * text, the answers split by `~`, each `=right` or `%50%partly right`, then `#feedback`; `\` escapes
 * the next character. Typed sub-questions (SHORTANSWER) and single-choice ones (MULTICHOICE, in any
 * layout) become our blanks; numbers (NUMERICAL) and several right choices (MULTIRESPONSE) are
 * kept when alone in the question, else named as lost.
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

/** One embedded answer as read: a blank of ours, or a number or several choices, which no blank holds. */
type Embedded =
  | { kind: 'blank'; weight: number; blank: ImportedBlank }
  | { kind: 'numeric' | 'many_choices'; weight: number; type: string; answers: SourceAnswer[] };

type PlainText = (raw: string, format: string, question: SourceQuestion) => string;

/** What a lone embedded answer of a kind no blank holds becomes, and what it is called when lost. */
const WHOLE: Readonly<Record<'numeric' | 'many_choices', { shape: ImportShape; lost: string }>> = {
  numeric: { shape: 'numeric', lost: 'a number with a tolerance, which no blank holds' },
  many_choices: { shape: 'many_choices', lost: 'several right choices, which no blank holds' },
};

/**
 * The question's text with each embedded answer replaced by its `[[n]]` marker, read as plain
 * text by `plainText`; its blanks are set on the question, and what they cannot hold listed. A
 * question whose only embedded answer is a number (NUMERICAL) or several right choices
 * (MULTIRESPONSE) becomes that question; among other blanks such an answer is named as lost, and
 * still counts in the weights the grade is shared by. The weights' sum comes back for that.
 */
export function readCloze(
  raw: string,
  format: string,
  at: string,
  question: SourceQuestion,
  plainText: PlainText,
): { text: string; weight: number } {
  const parts: Array<string | Embedded | null> = [];
  let last = 0;
  let count = 0;
  START.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = START.exec(raw))) {
    const type = match[2]!;
    const body = until(raw, START.lastIndex, '}');
    if (body.at >= raw.length) {
      question.problems.push(`${at}: an embedded answer {${match[1]}:${type}:… never closes with }`);
      break;
    }
    count += 1;
    const where = `${at}, embedded answer ${count} (${type})`;
    const weight = match[1] === '' ? 1 : Number(match[1]);
    parts.push(
      raw.slice(last, match.index),
      readEmbedded(body.part, type, weight, where, format, question, plainText),
    );
    last = body.at + 1;
    START.lastIndex = last;
  }
  parts.push(raw.slice(last));
  const embedded = parts.filter((part): part is Embedded => part !== null && typeof part !== 'string');
  const lone = parts.length === 3 && embedded.length === 1 ? embedded[0]! : undefined;
  if (lone && lone.kind !== 'blank') {
    question.shape = WHOLE[lone.kind].shape;
    question.answers = lone.answers;
    const text = parts.map((part) => (typeof part === 'string' ? part : '_____')).join('');
    return { text: plainText(text, format, question), weight: lone.weight };
  }
  const blanks: ImportedBlank[] = [];
  let n = 0;
  const out = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      n += 1;
      if (part === null) return '_____';
      if (part.kind !== 'blank') {
        note(question.lost, `embedded answer ${n} (${part.type}): ${WHOLE[part.kind].lost}`);
        return '_____';
      }
      blanks.push(part.blank);
      return `[[${blanks.length}]]`;
    })
    .join('');
  if (blanks.length === 0 && question.problems.length === 0) {
    question.problems.push(
      count === 0
        ? `${at}: no embedded answers ({1:SHORTANSWER:=…}) in the text`
        : `${at}: none of its ${count} embedded answers can be a blank here (blanks are typed text or one choice from a list)`,
    );
  }
  question.blanks = blanks;
  const weight = embedded.reduce((sum, part) => sum + part.weight, 0);
  return { text: plainText(out, format, question), weight };
}

/** The answers of an embedded answer: `=right` or `%50%partly`, each with its `#feedback`. */
function answersOf(body: string, question: SourceQuestion): Array<{ text: string; fraction: number }> {
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
    answers.push({ text: text.part, fraction });
    at = end + 1;
  }
  return answers;
}

function readEmbedded(
  body: string,
  type: string,
  weight: number,
  where: string,
  format: string,
  question: SourceQuestion,
  plainText: PlainText,
): Embedded | null {
  const typed = TYPED.has(type) || TYPED_CASE.has(type);
  const choice = CHOICE.has(type) || CHOICE_BUTTONS.has(type);
  const numeric = NUMERICAL.has(type);
  const many = MULTIRESPONSE.test(type);
  if (!typed && !choice && !numeric && !many) {
    question.problems.push(`${where}: not a type of embedded answer Moodle knows`);
    return null;
  }
  if (TYPED_CASE.has(type)) note(question.lost, 'case-sensitive matching');
  if (CHOICE_BUTTONS.has(type) || (many && /H/.test(type.slice(2)))) {
    note(question.lost, 'choices shown as buttons (a blank shows a list)');
  }
  const answers: SourceAnswer[] = [];
  for (const answer of answersOf(body, question)) {
    if (!numeric) {
      const value = plainText(unescape(answer.text), format, question);
      if (value !== '') answers.push({ text: value, fraction: answer.fraction });
      continue;
    }
    const written = unescape(answer.text).trim();
    if (written === '*') {
      note(question.lost, 'an answer for any other number');
      continue;
    }
    if (written === '') continue;
    const [value, tolerance = '0', ...extra] = written.split(':').map((piece) => piece.trim());
    const number = Number(value);
    const within = Number(tolerance === '' ? '0' : tolerance);
    if (value === '' || !Number.isFinite(number) || !Number.isFinite(within) || extra.length > 0) {
      question.problems.push(`${where}: "${written}" is not a number with its tolerance (write =3.14:0.01)`);
      return null;
    }
    answers.push({ text: String(number), fraction: answer.fraction, tolerance: Math.abs(within) });
  }
  if (!answers.some((answer) => answer.fraction > 0)) {
    question.problems.push(`${where}: no right answer (write one as =answer)`);
    return null;
  }
  if (numeric) return { kind: 'numeric', weight, type, answers };
  if (many) return { kind: 'many_choices', weight, type, answers };
  return { kind: 'blank', weight, blank: { grade: weight, choice, answers } };
}
