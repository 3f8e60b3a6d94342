import { hasRichParts, richPieces, type RichPiece, type RichTextOptions } from '../domain/rich-text';
import { escapeHtml, Html } from './html';

export type { RichTextOptions };

/** A quiz row's rich-text options: its `math_dollars` setting. */
export const richOptionsOf = (quiz: { mathDollars: boolean }): RichTextOptions => ({
  dollars: quiz.mathDollars,
});

function pieceHtml(piece: RichPiece): string {
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
      return piece.mathml ?? `<span class="formula-source" dir="ltr">${escapeHtml(piece.source)}</span>`;
  }
}

/**
 * A quiz text as HTML: escaped, its formulas typeset as MathML, its code as code. The MathML
 * comes from temml with untrusted commands off and styles removed (domain/rich-text.ts), so the
 * text can add no element or attribute that links, runs or styles.
 */
export function richText(text: string, options: RichTextOptions): Html {
  if (!hasRichParts(text, options)) return new Html(escapeHtml(text));
  return new Html(richPieces(text, options).map(pieceHtml).join(''));
}
