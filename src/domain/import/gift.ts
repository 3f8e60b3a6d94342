import {
  categoryLost,
  note,
  UnreadableBank,
  type SourceAnswer,
  type SourceBank,
  type SourceQuestion,
  CHANGES,
  noteChange,
} from './bank';
import { htmlToText, tidy } from './html-text';

/**
 * Moodle's GIFT format, read by a scanner of our own (docs/decisions/0019): questions separated by
 * blank lines, `//` comment lines, `$CATEGORY:` lines, an optional `::title::`, a stem with one
 * `{...}` answer block, the escapes `\~ \= \# \{ \} \: \\ \n`. As in Moodle, the prompt, each answer
 * and the general feedback may start with a text format, `[html]`/`[moodle]`/`[plain]`/`[markdown]`
 * (an answer or feedback without one takes the prompt's), and text after the answer block makes a
 * missing-word question when the answers are choices or short answers; after any other kind it is
 * just more of the prompt.
 */

// Escaped characters are swapped for private-use code points while the structure is read, then put back.
const ESCAPES: ReadonlyArray<[string, string]> = [
  ['\\\\', '\ue000'],
  ['\\~', '\ue001'],
  ['\\=', '\ue002'],
  ['\\#', '\ue003'],
  ['\\{', '\ue004'],
  ['\\}', '\ue005'],
  ['\\:', '\ue006'],
];

function hide(text: string): string {
  let out = text;
  for (const [escaped, mark] of ESCAPES) out = out.split(escaped).join(mark);
  return out.replace(/\\n/g, '\n');
}

function unhide(text: string): string {
  return text.replace(/[\ue000-\ue006]/g, (mark) => ESCAPES.find(([, m]) => m === mark)![0].slice(1));
}

interface Block {
  line: number;
  text: string;
  /** The path of the `$CATEGORY:` line before it, if any. */
  category?: string;
}

/** The questions' blocks, each with the line it starts on; comments and categories left out. */
function blocks(source: string): Block[] {
  const lines = source.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);
  const found: Block[] = [];
  let current: { line: number; lines: string[] } | null = null;
  let category = '';
  const close = () => {
    if (current) {
      found.push({ line: current.line, text: current.lines.join('\n'), ...(category ? { category } : {}) });
    }
    current = null;
  };
  lines.forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed.startsWith('//')) return;
    if (trimmed === '') return close();
    if (!current && /^\$CATEGORY:/i.test(trimmed)) {
      category = trimmed.replace(/^\$CATEGORY:/i, '').trim();
      return;
    }
    if (!current) current = { line: index + 1, lines: [] };
    current.lines.push(line);
  });
  close();
  return found;
}

/** `%50%` at the start of an answer: its weight in percent. */
function weighted(text: string, fallback: number): { fraction: number; rest: string; ok: boolean } {
  const match = /^%(-?\d+(?:\.\d+)?)%/.exec(text);
  if (!match) return { fraction: fallback, rest: text, ok: !text.startsWith('%') };
  return { fraction: Number(match[1]), rest: text.slice(match[0].length), ok: true };
}

/** An answer's text and whether it carried feedback (`#...`). */
function withoutFeedback(text: string): { text: string; feedback: boolean } {
  const at = text.indexOf('#');
  if (at < 0) return { text: text.trim(), feedback: false };
  return { text: text.slice(0, at).trim(), feedback: text.slice(at + 1).trim() !== '' };
}

type TextFormat = 'html' | 'moodle' | 'plain' | 'markdown';

/** A text's format as Moodle reads it: a marker at its very start, else the one it inherits. */
function textFormat(
  raw: string,
  inherited: TextFormat,
): { format: TextFormat; text: string; marker?: string } {
  const text = raw.trim();
  const marker = /^\[(html|moodle|plain|markdown)\]/i.exec(text);
  if (!marker) return { format: inherited, text };
  const format = marker[1]!.toLowerCase() as TextFormat;
  return { format, text: text.slice(marker[0].length), marker: format };
}

/**
 * A text, its marker removed: HTML reduced to its words; Moodle's and plain text as written;
 * Markdown as written too, as our rich text is not Markdown, and its formatting noted as lost.
 */
function readText(raw: string, inherited: TextFormat, question: SourceQuestion): string {
  const { format, text: marked, marker } = textFormat(raw, inherited);
  if (marker) noteChange(question, CHANGES.marker(marker));
  const text = unhide(marked);
  if (format === 'markdown' && text.trim()) note(question.lost, 'formatting (Markdown)');
  if (format !== 'html') return tidy(text);
  const plain = htmlToText(text);
  if (plain.images) note(question.lost, 'images');
  if (plain.formatting) note(question.lost, 'formatting (HTML)');
  if (plain.entities) noteChange(question, CHANGES.entities);
  if (plain.tags && !plain.formatting && !plain.images) noteChange(question, CHANGES.tags);
  return plain.text;
}

/** A number as PHP's is_numeric takes it, which Moodle asks of each value: `.5`, `+2`, `1e3`. */
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * One right value as Moodle reads it: `low..high` when `..` comes after its first character,
 * else `value:tolerance` when `:` does, else the value alone; each part trimmed. indexOf keeps it
 * linear however many dots a hostile text holds.
 */
function numericAnswer(
  body: string,
  fraction: number,
  at: string,
  question: SourceQuestion,
): SourceAnswer | null {
  const dots = body.indexOf('..', 1);
  const colon = body.indexOf(':', 1);
  const [first, second] =
    dots > 0
      ? [body.slice(0, dots), body.slice(dots + 2)]
      : colon > 0
        ? [body.slice(0, colon), body.slice(colon + 1)]
        : [body, '0'];
  const a = first.trim();
  const b = second.trim();
  if (NUMBER.test(a) && NUMBER.test(b)) {
    if (dots < 0) return { text: String(Number(a)), fraction, tolerance: Math.abs(Number(b)) };
    const [low, high] = [Number(a), Number(b)];
    return { text: String((low + high) / 2), fraction, tolerance: Math.abs(high - low) / 2 };
  }
  question.problems.push(`${at}: "${unhide(body)}" is not a number, value:tolerance or low..high`);
  return null;
}

/**
 * A numerical answer block after its `#`, as Moodle's GIFT reader takes it: everything from the
 * first `~` is the feedback for any other (wrong) number; the rest splits at each `=` into right
 * values, each `%weight%` (full marks without one), the value, then `#feedback`.
 */
function readNumeric(rest: string, format: TextFormat, at: string, question: SourceQuestion): void {
  const tilde = rest.indexOf('~');
  const wrong = tilde < 0 ? '' : rest.slice(tilde);
  const values = (tilde < 0 ? rest : rest.slice(0, tilde)).split('=');
  if (values[0]!.trim() === '') values.shift();
  if (withoutFeedback(wrong).feedback) note(question.lost, 'feedback per answer');
  for (const value of values) {
    const weight = weighted(value.trim(), 100);
    if (!weight.ok) question.problems.push(`${at}: a weight must be written %50% (a number between % signs)`);
    const { text, feedback } = withoutFeedback(weight.rest);
    if (feedback) note(question.lost, 'feedback per answer');
    const answer = numericAnswer(textFormat(text, format).text, weight.fraction, at, question);
    if (answer) question.answers.push(answer);
  }
  if (values.length === 0) {
    question.problems.push(`${at}: no right number after # (write {#3}, {#3:0.5} or {#1..5})`);
  }
}

/** Splits an answer block at each unescaped `=` or `~` that starts an answer. */
function answerParts(block: string): Array<{ mark: '=' | '~'; body: string }> {
  const parts: Array<{ mark: '=' | '~'; body: string }> = [];
  const pattern = /([=~])/g;
  let last: { mark: '=' | '~'; start: number } | null = null;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(block))) {
    // `->` inside a matching pair is not the start of an answer, nor is `=` right after `%`.
    if (match[1] === '=' && block[match.index + 1] === '>') continue;
    if (last) parts.push({ mark: last.mark, body: block.slice(last.start, match.index) });
    last = { mark: match[1] as '=' | '~', start: match.index + 1 };
  }
  if (last) parts.push({ mark: last.mark, body: block.slice(last.start) });
  return parts;
}

function readQuestion(block: Block): SourceQuestion {
  const at = `line ${block.line}`;
  const question: SourceQuestion = {
    at,
    sourceType: 'gift',
    shape: null,
    text: '',
    grade: 1,
    answers: [],
    lost: [],
    problems: [],
  };
  let body = hide(block.text).trim();
  const title = /^::([\s\S]*?)::/.exec(body);
  if (title) {
    question.name = unhide(title[1]!).trim();
    body = body.slice(title[0].length).trim();
  }
  // The prompt's format, which its answers and feedback inherit; readText removes the marker.
  const format = textFormat(body, 'moodle').format;

  const open = body.indexOf('{');
  if (open < 0) {
    question.sourceType = 'gift description';
    question.text = readText(body, format, question);
    question.problems.push(`${at}: no {answers}: a description, not a question`);
    return question;
  }
  const close = body.indexOf('}', open);
  if (close < 0) {
    throw new UnreadableBank(
      `line ${block.line}: the answers open with { but never close: add the } (write \\} for a literal brace)`,
    );
  }
  const stem = body.slice(0, open);
  const tail = body.slice(close + 1).trim();
  if (body.indexOf('{', close) >= 0) {
    question.problems.push(`${at}: more than one {answers} block (an embedded-answers question)`);
  }
  // Text after the answers is more of the prompt; readChoices puts a blank where they stood.
  const after = body.slice(close + 1);
  question.text = readText(tail ? `${stem}${after}` : stem, format, question);
  let answers = body.slice(open + 1, close).trim();

  const general = answers.indexOf('####');
  if (general >= 0) {
    const explanation = readText(answers.slice(general + 4), format, question);
    if (explanation) question.explanation = explanation;
    answers = answers.slice(0, general).trim();
  }

  if (answers === '') {
    question.sourceType = 'gift essay';
    question.shape = 'open';
    return question;
  }

  const truth = /^(T|TRUE|F|FALSE)\s*(#[\s\S]*)?$/i.exec(answers);
  if (truth) {
    question.sourceType = 'gift true/false';
    question.shape = 'truth';
    question.answers = [{ text: /^t/i.test(truth[1]!) ? 'true' : 'false', fraction: 100 }];
    if (truth[2] && truth[2].replace(/#/g, '').trim()) note(question.lost, 'feedback per answer');
    return question;
  }

  if (answers.startsWith('#')) {
    question.sourceType = 'gift numerical';
    question.shape = 'numeric';
    readNumeric(answers.slice(1), format, at, question);
    return question;
  }

  const parts = answerParts(answers);
  if (parts.length === 0 || answers.slice(0, answers.search(/[=~]/)).trim() !== '') {
    question.problems.push(
      `${at}: the answers must each start with = or ~ (write \\= or \\~ for the characters)`,
    );
    return question;
  }
  if (parts.some((part) => part.body.includes('->'))) return readMatching(parts, format, question);
  // Choices or short answers with text after them: a missing word, one blank where they stood.
  if (tail) question.text = readText(`${stem}[[1]]${after}`, format, question);
  const correct = parts.filter((part) => part.mark === '=').length;
  const wrong = parts.length - correct;
  for (const part of parts) {
    const weight = weighted(part.body.trim(), part.mark === '=' ? 100 : 0);
    if (!weight.ok) question.problems.push(`${at}: a weight must be written %50% (a number between % signs)`);
    const { text, feedback } = withoutFeedback(weight.rest);
    if (feedback) note(question.lost, 'feedback per answer');
    question.answers.push({ text: readText(text, format, question), fraction: weight.fraction });
  }
  if (tail) return missingWord(question, wrong > 0);
  if (wrong === 0) {
    question.sourceType = 'gift short answer';
    question.shape = 'text_answers';
  } else if (correct === 1) {
    question.sourceType = 'gift multiple choice';
    question.shape = 'one_choice';
  } else {
    question.sourceType = 'gift multiple answers';
    question.shape = correct === 0 ? 'many_choices' : 'one_choice';
    // Several "=" answers: each is a right one; Moodle gives each full marks, one to pick.
  }
  return question;
}

/**
 * Matching: `=prompt -> match` each; `= -> match` is a match of no prompt. GIFT has no grade, so
 * each pair reads as worth one point.
 */
function readMatching(
  parts: Array<{ mark: '=' | '~'; body: string }>,
  format: TextFormat,
  question: SourceQuestion,
) {
  question.sourceType = 'gift matching';
  question.shape = 'pairs';
  const list: Array<{ prompt: string; match: string }> = [];
  const extra: string[] = [];
  for (const part of parts) {
    const arrow = part.body.indexOf('->');
    if (part.mark !== '=' || arrow < 0) {
      question.problems.push(`${question.at}: each pair of a matching question is written =prompt -> match`);
      continue;
    }
    const { text: match, feedback } = withoutFeedback(part.body.slice(arrow + 2));
    if (feedback) note(question.lost, 'feedback per answer');
    const prompt = readText(part.body.slice(0, arrow), format, question);
    if (prompt) list.push({ prompt, match: tidy(unhide(match)) });
    else extra.push(tidy(unhide(match)));
  }
  question.pairs = { list, extra };
  question.grade = Math.max(1, list.length);
  return question;
}

/** A missing word: one blank, typed when every answer is right (`=`), else a choice among them. */
function missingWord(question: SourceQuestion, choice: boolean): SourceQuestion {
  question.sourceType = 'gift missing word';
  question.shape = 'blanks';
  question.blanks = [{ grade: question.grade, choice, answers: question.answers }];
  question.answers = [];
  return question;
}

export function readGift(source: string): SourceBank {
  const questions = blocks(source).map((block) => {
    const question = readQuestion(block);
    if (block.category) note(question.lost, categoryLost(block.category));
    return question;
  });
  return { format: 'gift', questions, problems: [] };
}
