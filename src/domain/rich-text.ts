import temml from 'temml';

/**
 * The rich text of a quiz (question texts, options, explanations, the description): plain text
 * with TeX formulas and code in it. This module splits a text into its pieces and typesets the
 * formulas to MathML (temml: decision 0020); web/rich-text.ts turns the pieces into HTML, and
 * quizzes/quiz-warnings.ts warns of a formula that does not typeset. Plain-text outputs (CSV,
 * answers as strings, webhooks, tool text) keep the source and never come here.
 *
 * - `\(...\)` is an inline formula, `\[...\]` a displayed one; `$...$` and `$$...$$` only when
 *   the quiz's `math_dollars` is on, so "$5 and $10" stays text in every other quiz.
 * - A backtick span is code, and so is a block between two lines of three backticks; nothing
 *   inside code is typeset.
 * - A formula that does not parse stays its source, with the parser's message.
 */

export interface RichTextOptions {
  /** The quiz's `math_dollars`: `$...$` and `$$...$$` are formulas too. */
  dollars: boolean;
}

export type RichPiece =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string; block: boolean }
  | {
      kind: 'math';
      /** As written, delimiters included: what is shown when it does not typeset. */
      source: string;
      /** The TeX between the delimiters. */
      tex: string;
      display: boolean;
      /** The typeset formula, one `<math>` element; null when it does not parse. */
      mathml: string | null;
      /** Why it did not parse; null when it did. */
      error: string | null;
    };

interface Delimiter {
  open: string;
  close: string;
  display: boolean;
  dollars: boolean;
}

// Longest first, so `$$` is not read as an empty `$...$`.
const DELIMITERS: readonly Delimiter[] = [
  { open: '\\(', close: '\\)', display: false, dollars: false },
  { open: '\\[', close: '\\]', display: true, dollars: false },
  { open: '$$', close: '$$', display: true, dollars: true },
  { open: '$', close: '$', display: false, dollars: true },
];

// Enough for any formula a question needs; a hostile macro loop stops here instead of spinning.
const MAX_EXPAND = 500;

/** Typeset formulas by source: a quiz's page is rendered on every visit, its formulas rarely change. */
const CACHE_SIZE = 2000;
const cache = new Map<string, { mathml: string | null; error: string | null }>();

function cached(tex: string, display: boolean) {
  const key = `${display ? 'D' : 'I'}${tex}`;
  const hit = cache.get(key);
  if (hit) {
    // Least recently used goes first: re-insert on a hit.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const made = typeset(tex, display);
  cache.set(key, made);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return made;
}

function typeset(tex: string, display: boolean): { mathml: string | null; error: string | null } {
  if (!tex.trim()) return { mathml: null, error: 'the formula is empty' };
  try {
    const mathml = temml.renderToString(tex, {
      displayMode: display,
      throwOnError: true,
      // No \href, \class, \style, \includegraphics: a quiz's text never links or styles the page.
      trust: false,
      maxExpand: MAX_EXPAND,
    });
    return { mathml: withoutStyles(mathml), error: null };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { mathml: null, error: parserMessage(message) };
  }
}

/** temml's message is one line plus a position marker drawn with combining characters: keep the line. */
function parserMessage(message: string): string {
  const line = message
    .split('\n')[0]!
    .replace(/^\s*ParseError:\s*/, '')
    .trim();
  return line.replace(/\s+at position \d+:?\s*$/, '').replace(/:\s*$/, '') || 'it is not valid TeX';
}

const STYLE = / style="([^"]*)"/g;
const COLOR = /(?:^|;)\s*color:\s*([#a-zA-Z0-9]+)\s*(?:;|$)/;

/**
 * The pages' CSP allows no inline style, and the browser would only drop it with a report: a
 * colour becomes MathML's own `mathcolor`, anything else goes (a displayed formula is a block
 * by its `display="block"`). A `<math>` is laid out left to right, also on an Arabic page.
 */
function withoutStyles(mathml: string): string {
  return mathml
    .replace(STYLE, (_all, style: string) => {
      const color = COLOR.exec(style)?.[1];
      return color ? ` mathcolor="${color}"` : '';
    })
    .replace(/^<math/, '<math dir="ltr"');
}

/** Where the closing `$` of `$...$` may be: not after a space, not before a digit ("$5 and $10"). */
function dollarCloses(text: string, at: number): boolean {
  return !/\s/.test(text[at - 1] ?? '') && !/\d/.test(text[at + 1] ?? '');
}

/** An opening `$` must not be followed by a space, as in Pandoc. */
function dollarOpens(text: string, at: number, open: string): boolean {
  const next = text[at + open.length];
  return next !== undefined && (open === '$$' || !/\s/.test(next));
}

function findClose(text: string, from: number, delimiter: Delimiter): number {
  let at = text.indexOf(delimiter.close, from);
  while (at !== -1) {
    const escaped = delimiter.dollars && text[at - 1] === '\\';
    if (!escaped && (delimiter.open !== '$' || dollarCloses(text, at))) return at;
    at = text.indexOf(delimiter.close, at + 1);
  }
  return -1;
}

/** The length of the run of backticks at `at`. */
function runAt(text: string, at: number): number {
  let end = at;
  while (text[end] === '`') end += 1;
  return end - at;
}

/** A code span of n backticks ends at the next run of exactly n; a fence at the next line of ```. */
function codeAt(text: string, at: number, unclosed: Set<string>): { piece: RichPiece; end: number } | null {
  const run = runAt(text, at);
  if (run >= 3 && (at === 0 || text[at - 1] === '\n') && !unclosed.has('fence')) {
    const fence = /\n```[ \t]*(?:\n|$)/g;
    fence.lastIndex = at + run;
    const close = fence.exec(text);
    if (!close) unclosed.add('fence');
    if (close) {
      const body = text.slice(at + run, close.index);
      // The fence's first line may name the language (```python): not shown.
      const newline = body.indexOf('\n');
      const code = newline === -1 ? body : body.slice(newline + 1);
      return { piece: { kind: 'code', text: code, block: true }, end: close.index + close[0].length };
    }
  }
  if (unclosed.has(`span ${run}`)) return null;
  const pattern = new RegExp(`(?<!\`)\`{${run}}(?!\`)`, 'g');
  pattern.lastIndex = at + run;
  const close = pattern.exec(text);
  if (!close) {
    unclosed.add(`span ${run}`);
    return null;
  }
  let code = text.slice(at + run, close.index);
  // As in CommonMark: one space each side lets a span start or end with a backtick.
  if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim()) code = code.slice(1, -1);
  return { piece: { kind: 'code', text: code, block: false }, end: close.index + run };
}

/** The pieces of a text, in order; a text with no formula or code is one text piece. */
export function richPieces(text: string, options: RichTextOptions): RichPiece[] {
  const pieces: RichPiece[] = [];
  let plain = '';
  const flush = () => {
    if (plain) pieces.push({ kind: 'text', text: plain });
    plain = '';
  };
  // What has no closing delimiter from some point on has none from any later point: each is
  // searched for to the end once, not once per opening (which took time quadratic in the text).
  const unclosed = new Set<string>();
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (char === '`') {
      const code = codeAt(text, at, unclosed);
      if (code) {
        flush();
        pieces.push(code.piece);
        at = code.end;
        continue;
      }
      const run = runAt(text, at);
      plain += text.slice(at, at + run);
      at += run;
      continue;
    }
    if (options.dollars && char === '\\' && text[at + 1] === '$') {
      // \$ is a dollar sign, written so in a quiz that typesets dollars.
      plain += '$';
      at += 2;
      continue;
    }
    const delimiter = DELIMITERS.find(
      (d) => (options.dollars || !d.dollars) && text.startsWith(d.open, at) && dollarOpens(text, at, d.open),
    );
    const close =
      delimiter && !unclosed.has(delimiter.open)
        ? findClose(text, at + delimiter.open.length, delimiter)
        : -1;
    if (delimiter && close === -1) unclosed.add(delimiter.open);
    if (!delimiter || close === -1) {
      plain += char;
      at += 1;
      continue;
    }
    const tex = text.slice(at + delimiter.open.length, close);
    const end = close + delimiter.close.length;
    const made = cached(tex, delimiter.display);
    flush();
    pieces.push({ kind: 'math', source: text.slice(at, end), tex, display: delimiter.display, ...made });
    at = end;
  }
  flush();
  return pieces;
}

/** Whether a text holds anything to typeset or show as code (plain text takes the short path). */
export function hasRichParts(text: string, options: RichTextOptions): boolean {
  return (
    text.includes('\\(') ||
    text.includes('\\[') ||
    text.includes('`') ||
    (options.dollars && text.includes('$'))
  );
}

/** The formulas of a text that do not typeset: their source and why. */
export function formulaProblems(
  text: string | null,
  options: RichTextOptions,
): Array<{ source: string; error: string }> {
  if (!text || !hasRichParts(text, options)) return [];
  return richPieces(text, options).flatMap((piece) =>
    piece.kind === 'math' && piece.error !== null ? [{ source: piece.source, error: piece.error }] : [],
  );
}
