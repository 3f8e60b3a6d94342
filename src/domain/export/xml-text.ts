/**
 * The one escaper of text written into the XML files we export (Moodle XML, QTI packages), so
 * every file parses: the markup characters escaped, and the characters XML 1.0 cannot hold at all
 * dropped (they have no escape either): C0 controls other than tab, line feed and carriage return,
 * surrogates not in a pair, and U+FFFE and U+FFFF. A carriage return is written as a reference,
 * which a parser keeps, where it turns a written one into a line feed.
 */

const FORBIDDEN =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
};

/** The text without the characters XML 1.0 forbids. */
export const withoutForbiddenXml = (text: string) => text.replace(FORBIDDEN, '');

/** Text for an element's content or a quoted attribute value. */
export const escapeXml = (text: string) =>
  withoutForbiddenXml(text).replace(/[&<>"'\r]/g, (mark) => ESCAPES[mark]!);
