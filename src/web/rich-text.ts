import { hasRichParts, richPieces, type RichPiece, type RichTextOptions } from '../domain/rich-text';
import { escapeHtml, Html } from './html';

export type { RichTextOptions };

/** A quiz row's rich-text options: its `math_dollars` setting. */
export const richOptionsOf = (quiz: { mathDollars: boolean }): RichTextOptions => ({
  dollars: quiz.mathDollars,
});

/**
 * `control`: the text names a form control (an option's label). Chromium leaves a `<math>` out of
 * the name it computes for the control, so a radio labelled by a formula alone would have none:
 * there the formula carries its TeX as its label, a linear form many screen-reader users read.
 */
export interface RichTextContext {
  control?: boolean;
}

function pieceHtml(piece: RichPiece, context: RichTextContext): string {
  switch (piece.kind) {
    case 'text':
      return escapeHtml(piece.text);
    case 'code':
      // Code reads left to right on an Arabic page too; a block stays phrasing content (a <code>
      // laid out as a block) so that it may sit in a label or a legend.
      return piece.block
        ? `<code class="code-block" dir="ltr">${escapeHtml(piece.text)}</code>`
        : `<code dir="ltr">${escapeHtml(piece.text)}</code>`;
    case 'math':
      // Shown as written when it does not parse: the owner sees what to fix, the respondent the intent.
      if (piece.mathml === null)
        return `<span class="formula-source" dir="ltr">${escapeHtml(piece.source)}</span>`;
      return context.control
        ? piece.mathml.replace(/^<math/, `<math aria-label="${escapeHtml(piece.tex.trim())}"`)
        : piece.mathml;
  }
}

/**
 * A quiz text as HTML: escaped, its formulas typeset as MathML, its code as code. The MathML
 * comes from temml with untrusted commands off and styles removed (domain/rich-text.ts), so the
 * text can add no element or attribute that links, runs or styles.
 */
export function richText(text: string, options: RichTextOptions, context: RichTextContext = {}): Html {
  if (!hasRichParts(text, options)) return new Html(escapeHtml(text));
  return new Html(
    richPieces(text, options)
      .map((piece) => pieceHtml(piece, context))
      .join(''),
  );
}

/**
 * A quiz text as richText makes it, with each `marker` match in its plain text replaced by
 * `slot(match)`'s HTML (fill_in_blanks' inline controls): formulas and code around it typeset
 * as ever, and a marker inside them stays as written. Returns the matches placed, in order.
 */
export function richTextWithSlots(
  text: string,
  options: RichTextOptions,
  marker: RegExp,
  slot: (match: RegExpMatchArray) => Html,
): { html: Html; placed: string[] } {
  const placed: string[] = [];
  const withSlots = (plain: string) => {
    let out = '';
    let at = 0;
    for (const match of plain.matchAll(new RegExp(marker.source, 'g'))) {
      out += escapeHtml(plain.slice(at, match.index));
      out += slot(match).toString();
      placed.push(match[0]);
      at = match.index + match[0].length;
    }
    return out + escapeHtml(plain.slice(at));
  };
  const pieces: RichPiece[] = hasRichParts(text, options)
    ? richPieces(text, options)
    : [{ kind: 'text', text }];
  const body = pieces
    .map((piece) => (piece.kind === 'text' ? withSlots(piece.text) : pieceHtml(piece, {})))
    .join('');
  return { html: new Html(body), placed };
}
