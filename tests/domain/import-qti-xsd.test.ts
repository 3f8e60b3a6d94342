// The QTI 3.0 export checked against 1EdTech's XSD (tests/helpers/qti-xsd.ts): the manifest
// against the content-package schema, the test and every item against the ASI schema; and a
// broken item is caught, so the check is not one that passes whatever it is given.
import { openZip } from '../../src/domain/import/zip';
import { exportQti } from '../../src/domain/export/qti-export';
import { EVERY_TYPE, pictureUrl, WITH_PICTURES } from '../fixtures/qti-every-type';
import { describeWithQtiXsd, validateQti } from '../helpers/qti-xsd';

jest.setTimeout(120_000);

describeWithQtiXsd('the QTI 3.0 export against the 1EdTech XSD', () => {
  let files: Map<string, string>;

  beforeAll(async () => {
    const out = await exportQti({ quiz_id: 'quiz_1', title: 'Every type & more', questions: EVERY_TYPE });
    const zip = await openZip(out.bytes);
    files = new Map();
    for (const path of zip.paths) files.set(path, (await zip.read(path)).toString('utf8'));
    zip.close();
  });

  test('the package holds a manifest, a test and one item per question', () => {
    expect([...files.keys()]).toEqual([
      'imsmanifest.xml',
      'assessment-test.xml',
      ...EVERY_TYPE.map((_, index) => `items/item-${index + 1}.xml`),
    ]);
  });

  test('the manifest is valid', async () => {
    const result = await validateQti('imsmanifest.xml', files.get('imsmanifest.xml')!, 'manifest');
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test('the test and every item are valid', async () => {
    for (const [path, xml] of files) {
      if (path === 'imsmanifest.xml') continue;
      const result = await validateQti(path, xml, 'asi');
      expect({ path, errors: result.errors }).toEqual({ path, errors: [] });
      expect(result.valid).toBe(true);
    }
  });

  test('an item with pictures, on the question and inside its choices, and its manifest are valid', async () => {
    const out = await exportQti(
      { quiz_id: 'quiz_2', title: 'Pictures', questions: [WITH_PICTURES] },
      new Map(['a', 'b', 'c'].map((letter) => [pictureUrl(letter.repeat(64)), Buffer.from('png')])),
    );
    const zip = await openZip(out.bytes);
    const read = async (path: string) => (await zip.read(path)).toString('utf8');
    try {
      for (const [path, against] of [
        ['imsmanifest.xml', 'manifest'],
        ['items/item-1.xml', 'asi'],
      ] as const) {
        const result = await validateQti(path, await read(path), against);
        expect({ path, errors: result.errors }).toEqual({ path, errors: [] });
      }
      // And the schema does refuse a picture straight in the item body, as the export never writes it.
      const loose = (await read('items/item-1.xml')).replace(/<p>(<img [^>]*\/>)<\/p>/, '$1');
      expect((await validateQti('loose.xml', loose, 'asi')).valid).toBe(false);
    } finally {
      zip.close();
    }
  });

  test('an item the schema does not allow is caught', async () => {
    const item = files.get('items/item-1.xml')!;
    const broken = item.replace('<qti-choice-interaction ', '<qti-choice-interaction not-an-attribute="1" ');
    const result = await validateQti('broken.xml', broken, 'asi');
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toContain("attribute 'not-an-attribute' is not allowed");
  });
});
