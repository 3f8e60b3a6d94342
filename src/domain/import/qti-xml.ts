import { child, elements, type XmlElement } from './xml';

/**
 * QTI 2.x and 3.0 read as one vocabulary: 3.0's kebab-case names (`qti-choice-interaction`,
 * `response-identifier`), which 2.x spells in camelCase (`choiceInteraction`,
 * `responseIdentifier`). Namespace prefixes are dropped (MathML's `m:math` is `math`). Each
 * element keeps the name its file gave it, for the preview.
 */

/** QTI 2.x elements spelt in lower case, which HTML (in the same namespace there) never uses. */
const QTI2_LOWER = new Set([
  'prompt',
  'value',
  'mapping',
  'correct',
  'variable',
  'match',
  'equal',
  'multiple',
  'ordered',
  'sum',
  'and',
  'or',
  'not',
  'gt',
  'lt',
  'gte',
  'lte',
]);

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

const originals = new WeakMap<XmlElement, string>();

/** The element's name as its file spells it (`choiceInteraction` in 2.1). */
export const sourceName = (element: XmlElement) => originals.get(element) ?? element.name;

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** The item, test or manifest with QTI 3.0's names, whichever version it is written in. */
export function normalise(element: XmlElement, version: 2 | 3): XmlElement {
  const local = localName(element.name);
  const name =
    version === 2 && (/[A-Z]/.test(local) || QTI2_LOWER.has(local)) ? `qti-${kebab(local)}` : local;
  const attributes: Record<string, string> = {};
  for (const [key, value] of Object.entries(element.attributes)) {
    if (key.startsWith('xmlns')) continue;
    attributes[key.includes(':') ? key : version === 2 ? kebab(key) : key] = value;
  }
  const normalised: XmlElement = {
    name,
    attributes,
    line: element.line,
    children: element.children.map((part) => (typeof part === 'string' ? part : normalise(part, version))),
  };
  originals.set(normalised, local);
  return normalised;
}

/** Every element below this one, in document order. */
export function descendants(element: XmlElement, name?: string): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (parent: XmlElement) => {
    for (const part of elements(parent)) {
      if (name === undefined || part.name === name) found.push(part);
      walk(part);
    }
  };
  walk(element);
  return found;
}

export { child, elements };

/** What reading an item's content as plain text met and could not keep. */
export interface TextFlags {
  images: boolean;
  media: boolean;
  maths: boolean;
  formatting: boolean;
  feedback: boolean;
  templates: boolean;
}

export const noFlags = (): TextFlags => ({
  images: false,
  media: false,
  maths: false,
  formatting: false,
  feedback: false,
  templates: false,
});

const BLOCK = /^(p|div|li|tr|h[1-6]|blockquote|pre|dt|dd|figure|figcaption|caption|qti-content-body)$/;
const TRANSPARENT = /^(span|label|ul|ol|dl|table|thead|tbody|tfoot|section|article|aside|header|footer|nav)$/;
const FEEDBACK = /^qti-(feedback-inline|feedback-block|modal-feedback)$/;
/** Interactions that sit inside a sentence: the text keeps a blank where they stand. */
const INLINE_INTERACTION = /^qti-(text-entry|inline-choice|end-attempt)-interaction$/;

/** How a caller takes some of the content that plain text cannot hold. */
export interface TextHooks {
  /** An inline interaction's marker in the text (a blank's `[[n]]`); undefined: the usual blank. */
  marker?: (interaction: XmlElement) => string | undefined;
  /** True when the caller takes the picture (no alt text in the text, nothing lost). */
  image?: (img: XmlElement) => boolean;
}

/**
 * The text of an item's content: block elements become new lines, images their alt text in
 * brackets, interactions a blank (inline) or nothing; feedback and rubrics are left out. What
 * that drops is set in `flags`.
 */
export function plainText(element: XmlElement, flags: TextFlags, hooks: TextHooks = {}): string {
  const out: string[] = [];
  const walk = (parent: XmlElement) => {
    for (const part of parent.children) {
      if (typeof part === 'string') {
        out.push(part.replace(/\s+/g, ' '));
        continue;
      }
      const name = part.name;
      if (FEEDBACK.test(name)) flags.feedback = true;
      else if (name === 'qti-rubric-block' || name === 'qti-stylesheet' || name === 'qti-catalog-info')
        continue;
      else if (INLINE_INTERACTION.test(name) && hooks.marker?.(part) !== undefined) {
        out.push(hooks.marker(part)!);
      } else if (INLINE_INTERACTION.test(name)) {
        // A blank where it stands in a sentence; none where it stands alone in its paragraph.
        const alone = parent.children.every(
          (other) => other === part || (typeof other === 'string' && !other.trim()),
        );
        if (!alone) out.push(' ____ ');
      } else if (name.endsWith('-interaction')) continue;
      else if (name === 'br') out.push('\n');
      else if (name === 'img') {
        if (hooks.image?.(part)) continue;
        flags.images = true;
        const alt = part.attributes.alt?.trim();
        if (alt) out.push(`[${alt}]`);
      } else if (name === 'math') {
        // Our texts hold formulas as TeX between \( \) or \[ \]: a TeX annotation comes along whole.
        const tex = descendants(part, 'annotation').find((note) =>
          /tex/i.test(note.attributes.encoding ?? ''),
        );
        const source = tex ? textIn(tex).trim() : '';
        if (source) {
          const block = part.attributes.display === 'block';
          out.push(/^\\[[(]/.test(source) ? source : block ? `\\[ ${source} \\]` : `\\( ${source} \\)`);
          continue;
        }
        flags.maths = true;
        const alt = part.attributes.alttext?.trim();
        out.push(alt ? alt : textIn(part).replace(/\s+/g, ' '));
      } else if (name === 'object' || name === 'audio' || name === 'video' || name === 'picture') {
        flags.media = true;
      } else if (name.startsWith('qti-printed-variable') || name.startsWith('qti-template')) {
        flags.templates = true;
      } else if (BLOCK.test(name)) {
        out.push('\n');
        walk(part);
        out.push('\n');
      } else {
        if (!TRANSPARENT.test(name) && !name.startsWith('qti-')) flags.formatting = true;
        walk(part);
      }
    }
  };
  walk(element);
  return out
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function textIn(element: XmlElement): string {
  return element.children.map((part) => (typeof part === 'string' ? part : textIn(part))).join('');
}

/** The words of what a flag stands for, as the preview lists what a question loses. */
export function lostOf(flags: TextFlags): string[] {
  const lost: string[] = [];
  if (flags.images) lost.push('images');
  if (flags.media) lost.push('audio, video or other media');
  if (flags.maths) lost.push('maths (MathML, read as text)');
  if (flags.formatting) lost.push('formatting (HTML)');
  if (flags.feedback) lost.push('feedback');
  if (flags.templates) lost.push('template variables');
  return lost;
}

/** The one child of `parent` with this name, looked for at any depth. */
export const find = (parent: XmlElement, name: string): XmlElement | undefined =>
  child(parent, name) ?? descendants(parent, name)[0];
