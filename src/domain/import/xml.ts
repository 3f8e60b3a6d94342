import { SaxesParser } from 'saxes';
import { UnreadableBank } from './bank';

/**
 * A small element tree read with saxes (docs/decisions/0019), which expands no entity beyond XML's
 * five and character references and fetches nothing. A document that declares a DOCTYPE is
 * refused outright, before any entity defined there could be met: no import format needs one.
 */
export interface XmlElement {
  name: string;
  attributes: Readonly<Record<string, string>>;
  children: Array<XmlElement | string>;
  line: number;
}

const DEPTH_MAX = 64;

export function readXml(source: string): XmlElement {
  const parser = new SaxesParser({ position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let failure: UnreadableBank | undefined;
  const fail = (message: string) => {
    failure ??= new UnreadableBank(message);
  };
  // saxes reports the DOCTYPE once read whole: name the line where it starts.
  const doctypeLine = () => source.slice(0, Math.max(0, source.search(/<!DOCTYPE/i))).split('\n').length;
  parser.on('doctype', () =>
    fail(
      `line ${doctypeLine()}: the XML declares a DOCTYPE; entities and DTDs are not read here, for safety: remove the <!DOCTYPE ...> declaration`,
    ),
  );
  parser.on('opentag', (tag) => {
    const element: XmlElement = {
      name: tag.name,
      attributes: Object.fromEntries(Object.entries(tag.attributes as Record<string, string>)),
      children: [],
      line: parser.line,
    };
    if (stack.length >= DEPTH_MAX) fail(`line ${parser.line}: elements nested deeper than ${DEPTH_MAX}`);
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const text = (value: string) => {
    const parent = stack.at(-1);
    if (parent) parent.children.push(value);
  };
  parser.on('text', text);
  parser.on('cdata', text);
  parser.on('error', (error) => {
    throw error;
  });
  try {
    parser.write(source.replace(/^\ufeff/, ''));
    if (!failure) parser.close();
  } catch (error) {
    // saxes words its errors "line:column: what"; ours come first when they were found first.
    if (failure) throw failure;
    const message = error instanceof Error ? error.message : String(error);
    const where = /^(\d+):(\d+): (.*)$/.exec(message);
    const said = where ? `line ${where[1]}, column ${where[2]}: ${where[3]!.replace(/\.$/, '')}` : message;
    throw new UnreadableBank(
      /undefined entity/.test(message)
        ? `${said}: only XML's own entities (&amp; &lt; &gt; &quot; &apos;) and character references are read`
        : `${said}: the XML is not well-formed`,
    );
  }
  if (failure) throw failure;
  if (!root) throw new UnreadableBank('the XML has no root element');
  return root;
}

export const elements = (parent: XmlElement, name?: string): XmlElement[] =>
  parent.children.filter(
    (child): child is XmlElement => typeof child !== 'string' && (name === undefined || child.name === name),
  );

export const child = (parent: XmlElement, name: string): XmlElement | undefined => elements(parent, name)[0];

/** All text inside an element, CDATA included. */
export function textOf(element: XmlElement | undefined): string {
  if (!element) return '';
  return element.children.map((part) => (typeof part === 'string' ? part : textOf(part))).join('');
}

/** Moodle's `<x><text>...</text></x>` pattern. */
export const textChild = (parent: XmlElement, name: string): string => {
  const element = child(parent, name);
  return element ? textOf(child(element, 'text') ?? element) : '';
};
