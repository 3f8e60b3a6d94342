import { detectFormat, readBank } from '../../src/domain/import/assemble';
import { htmlToText } from '../../src/domain/import/html-text';
import { isDomainError } from '../../src/domain/errors';
import { picturePaths, readPackageBank, readQtiItem } from '../../src/domain/import/qti';
import { writeZip } from '../../src/domain/import/zip';
import { formulaProblems } from '../../src/domain/rich-text';
import { UPLOAD_BYTES_MAX } from '../../src/domain/uploads/uploads';

/**
 * Imported text is read in time linear in its size: each reader on hostile text, first small
 * (where a quadratic pattern already takes seconds, so the old code fails fast), then at the
 * upload limit within a bound far below what a quadratic reading would take.
 */

const SMALL = 60_000;

const pump = (unit: string, size: number, tail = '') => unit.repeat(Math.ceil(size / unit.length)) + tail;

const swallow = (read: () => unknown) => {
  try {
    read();
  } catch {
    // Refused as unreadable is an answer too: only the time counts here.
  }
};

/**
 * The processor time the reading took (ms), not the wall clock's: a machine busy with other
 * suites stretches the second several times over, while a quadratic reading's work stays hours.
 */
const elapsed = (read: () => unknown) => {
  const start = process.cpuUsage();
  swallow(read);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

const CASES: Array<[string, (text: string) => unknown, string, string?]> = [
  ['html comments without an end', (text) => htmlToText(text), '<!--'],
  ['script openings without an end', (text) => htmlToText(text), '<script>'],
  ['style openings before a script end', (text) => htmlToText(`${text}</script>`), '<style '],
  ['tag openings without a >', (text) => htmlToText(text), '<a '],
  ['GIFT numeric ranges of dots', (text) => readBank(text, 'gift'), '1..', ' x}'],
  ['GIFT html answers', (text) => readBank(`::t::[html]Q {=${text}}`, 'gift'), '<!--<a <script>'],
  ['GIFT numeric answer of dots', (text) => readBank(`Q {#${text} 1}`, 'gift'), '..'],
  ['format detection of braces', (text) => detectFormat(text), '{'],
  ['Aiken options', (text) => readBank(text, 'aiken'), 'A. \n'],
  ['CSV quotes', (text) => readBank(`type,text\n${text}`, 'csv'), '"a,'],
  [
    'Moodle XML html text',
    (text) =>
      readBank(
        `<quiz><question type="essay"><questiontext format="html"><text><![CDATA[${text}]]></text></questiontext></question></quiz>`,
        'moodle_xml',
      ),
    '<img <!--<script',
  ],
  [
    'Moodle XML cloze',
    (text) =>
      readBank(
        `<quiz><question type="cloze"><questiontext><text><![CDATA[${text}]]></text></questiontext></question></quiz>`,
        'moodle_xml',
      ),
    '{1:SHORTANSWER:=a',
  ],
  ['QTI img without a >', (text) => picturePaths(text, 'item.xml'), '<img src="a'],
  [
    'QTI item',
    (text) =>
      readQtiItem(
        `<qti-assessment-item><qti-item-body>${text}</qti-item-body></qti-assessment-item>`,
        'item.xml',
        new Map(),
      ),
    '<img ',
  ],
  ['formulas without a close', (text) => formulaProblems(text, { dollars: true }), '\\( $$ $a ` `` ```x\n'],
];

describe('imported text is read in linear time', () => {
  it.each(CASES)(
    '%s',
    (_name, read, unit, tail = '') => {
      expect(elapsed(() => read(pump(unit, SMALL, tail)))).toBeLessThan(1_000);
      // At the upload limit: a quadratic reading would take hours; a linear one takes about two
      // seconds alone, and the process's time (its collector's threads too) grows several times
      // over on a busy machine.
      expect(elapsed(() => read(pump(unit, UPLOAD_BYTES_MAX, tail)))).toBeLessThan(30_000);
    },
    60_000,
  );

  it('reads what the old patterns read', () => {
    expect(htmlToText('a<!-- x -->b<script>s</script >c<STYLE>t</style>d<!-- open').text).toBe(
      'abcd<!-- open',
    );
    expect(htmlToText('<p>one</p><b>two</b> <a x').text).toBe('one\ntwo <a x');
    const bank = readBank('Q {#1..5}\n\nR {#-1..-0.5}', 'gift');
    expect(bank.questions.map((question) => question.answers[0])).toEqual([
      { text: '3', fraction: 100, tolerance: 2 },
      { text: '-0.75', fraction: 100, tolerance: 0.25 },
    ]);
    expect(detectFormat('a { b')).toBeNull();
    expect(detectFormat('a { b }')).toBe('gift');
    expect(picturePaths('<img alt="x" src="p/a%20b.png"> <img src=\'c.png\'/>', 'items/i.xml')).toEqual([
      'items/p/a b.png',
      'items/c.png',
    ]);
  });
});

describe('a QTI href with a bad percent-escape', () => {
  it('is refused as bad input naming the href, not thrown as a URIError', async () => {
    const manifest = `<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1"><resources><resource identifier="i" type="imsqti_item_xmlv3p0" href="items/%zz.xml"/></resources></manifest>`;
    const zip = await writeZip([{ path: 'imsmanifest.xml', bytes: manifest }]);
    const refusal = await readPackageBank(zip).catch((error: unknown) => error);
    expect(isDomainError(refusal) && refusal.code).toBe('invalid_input');
    expect(JSON.stringify(refusal)).toContain('bad percent-escape');
  });
});
