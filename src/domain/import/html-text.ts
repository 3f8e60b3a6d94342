/**
 * Questions here are plain text, so the HTML of Moodle XML and of GIFT's `[html]` texts is read
 * down to its words: paragraphs and line breaks become new lines, entities are decoded, and what
 * cannot come along (images, formatting) is reported for the preview.
 */

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  laquo: '«',
  raquo: '»',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  times: '×',
  divide: '÷',
  deg: '°',
  euro: '€',
};

/** Decodes character references; an unknown name stays as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/** Tags that only break lines or paragraphs, which plain text keeps as new lines. */
const BLOCKS = /^(p|br|div|li|ul|ol|tr|h[1-6])$/i;

export interface PlainText {
  text: string;
  /** It had images (an `<img>`, often `@@PLUGINFILE@@/...`). */
  images: boolean;
  /** It had formatting beyond paragraphs and line breaks (bold, links, tables, media). */
  formatting: boolean;
}

export function htmlToText(html: string): PlainText {
  let images = false;
  let formatting = false;
  const withoutComments = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, () => {
      formatting = true;
      return '';
    });
  const text = withoutComments.replace(/<\/?([a-z][a-z0-9]*)\b[^>]*>/gi, (tag, name: string) => {
    if (/^img$/i.test(name)) {
      images = true;
      const alt = /\balt\s*=\s*"([^"]*)"/i.exec(tag)?.[1];
      return alt ? `[${alt}]` : '';
    }
    if (BLOCKS.test(name)) return /^(br|p|div|li|tr|h[1-6])$/i.test(name) ? '\n' : '';
    formatting = true;
    return '';
  });
  return { text: tidy(decodeEntities(text)), images, formatting };
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
