/**
 * Questions here are plain text, so the HTML of Moodle XML and of GIFT's `[html]` texts is read
 * down to its words: paragraphs and line breaks become new lines, entities are decoded, and what
 * cannot come along (images, formatting) is reported for the preview.
 */
import { decodeHTML } from 'entities';

/**
 * Decodes character references with the full HTML table (`Qu&eacute;bec`, `&frac12;`, numeric
 * forms); a no-break space becomes a plain space, as plain text has no use for it.
 */
export function decodeEntities(text: string): string {
  return decodeHTML(text).replace(/\u00a0/g, ' ');
}

/** Tags that only break lines or paragraphs, which plain text keeps as new lines. */
const BLOCKS = /^(p|br|div|li|ul|ol|tr|h[1-6])$/i;

export interface PlainText {
  text: string;
  /** It had images (an `<img>`, often `@@PLUGINFILE@@/...`). */
  images: boolean;
  /** It had formatting beyond paragraphs and line breaks (bold, links, tables, media). */
  formatting: boolean;
  /** It had tags at all, read as line breaks or dropped. */
  tags: boolean;
  /** It had character references, decoded. */
  entities: boolean;
}

export function htmlToText(html: string): PlainText {
  let images = false;
  let formatting = false;
  let tags = false;
  const scripts = withoutScripts(withoutComments(html));
  if (scripts.found) formatting = true;
  const text = replaceTags(scripts.text, /<\/?([a-z][a-z0-9]*)\b[^>]*>/gi, (tag, name: string) => {
    tags = true;
    if (/^img$/i.test(name)) {
      images = true;
      const alt = /\balt\s*=\s*"([^"]*)"/i.exec(tag)?.[1];
      return alt ? `[${alt}]` : '';
    }
    if (BLOCKS.test(name)) return /^(br|p|div|li|tr|h[1-6])$/i.test(name) ? '\n' : '';
    formatting = true;
    return '';
  });
  const decoded = decodeHTML(text);
  return {
    text: tidy(decoded.replace(/\u00a0/g, ' ')),
    images,
    formatting,
    tags,
    entities: decoded.length !== text.length || decoded !== text,
  };
}

/**
 * `text.replace(pattern, replace)` for a global pattern of tags that each end at their first `>`
 * (`<name\b[^>]*>`): past the last `>` no tag can end, so that tail is not searched; searched, each
 * `<a` there would be scanned to the end, which takes time quadratic in the text.
 */
export function replaceTags(
  text: string,
  pattern: RegExp,
  replace: (tag: string, ...groups: string[]) => string,
): string {
  const end = text.lastIndexOf('>') + 1;
  return text.slice(0, end).replace(pattern, replace) + text.slice(end);
}

/**
 * `<!--...-->` removed, as `/<!--[\s\S]*?-->/g` would, in one pass: an opening with no `-->`
 * after it ends the search rather than being scanned to the end once per opening.
 */
export function withoutComments(html: string): string {
  let out = '';
  let from = 0;
  for (let open = html.indexOf('<!--'); open >= 0; open = html.indexOf('<!--', from)) {
    const close = html.indexOf('-->', open + 4);
    if (close < 0) break;
    out += html.slice(from, open);
    from = close + 3;
  }
  return out + html.slice(from);
}

/**
 * `<script>` and `<style>` elements removed to their own closing tag, as
 * `/<(script|style)\b[\s\S]*?<\/\1\s*>/gi` would, in one pass: once a kind has no closing tag
 * left, its later openings are not searched again (each would be scanned to the end).
 */
export function withoutScripts(html: string): { text: string; found: boolean } {
  const open = /<(script|style)\b/gi;
  const closing: Record<string, RegExp> = { script: /<\/script\s*>/gi, style: /<\/style\s*>/gi };
  const unclosed = new Set<string>();
  let out = '';
  let from = 0;
  let found = false;
  let match: RegExpExecArray | null;
  while ((match = open.exec(html))) {
    const kind = match[1]!.toLowerCase();
    if (unclosed.has(kind)) continue;
    const close = closing[kind]!;
    close.lastIndex = open.lastIndex;
    if (!close.exec(html)) {
      unclosed.add(kind);
      continue;
    }
    out += html.slice(from, match.index);
    from = close.lastIndex;
    open.lastIndex = from;
    found = true;
  }
  return { text: out + html.slice(from), found };
}

/** Trims each line, keeps at most one empty line between paragraphs. */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
