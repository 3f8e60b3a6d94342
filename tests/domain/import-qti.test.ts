// QTI packages in and out, without the app: our own QTI 3.0 and 2.1 packages (zipped here from
// tests/fixtures/import/) import with the expected count and types, each loss listed per
// question; hostile zips are refused whole with a message saying why; and every type of ours
// goes out to QTI 3.0 and back with every field the format holds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDomainError } from '../../src/domain/errors';
import { QUESTION_TYPE_DEFINITIONS } from '../../src/domain/question-types';
import { assemble } from '../../src/domain/import/assemble';
import { exportQti, type ExportableQuiz } from '../../src/domain/export/qti-export';
import { readPackageBank } from '../../src/domain/import/qti';
import { previewBank } from '../../src/domain/import/import-questions';
import { openZip, writeZip, ZIP_LIMITS } from '../../src/domain/import/zip';
import type { QuestionRecord } from '../../src/domain/quiz-records';
import { EVERY_TYPE, pictureUrl, WITH_PICTURES } from '../fixtures/qti-every-type';
import { zipFixtureFolder } from '../helpers/qti-packages';

const FIXTURES = path.join(__dirname, '../fixtures/import');

const zipFolder = zipFixtureFolder;

async function imported(bytes: Buffer) {
  const bank = await readPackageBank(bytes);
  return { bank, ...assemble(bank) };
}

/** The refusal's text, or fails when the package was read. */
async function refusal(bytes: Buffer): Promise<string> {
  try {
    await readPackageBank(bytes);
  } catch (error) {
    if (isDomainError(error)) return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('a QTI 3.0 package of our own', () => {
  test('imports in the order of its test, each item as its type, with what it loses listed', async () => {
    const { bank, scale, questions } = await imported(await zipFolder('qti3-package'));
    expect(bank.format).toBe('qti');
    expect(bank.problems).toEqual([]);
    expect(questions.map((question) => [question.at, question.input?.type ?? null])).toEqual([
      ['items/truth.xml', 'yes_no'],
      ['items/capital.xml', 'multiple_choice'],
      ['items/metals.xml', 'multiple_select'],
      ['items/primes.xml', 'multiple_select'],
      ['items/derivative.xml', 'fill_in_blanks'],
      ['items/pi.xml', 'number'],
      ['items/boiling.xml', 'number'],
      ['items/planets.xml', 'ordering'],
      ['items/rating.xml', 'scale'],
      ['items/pairs.xml', 'matching'],
      ['items/essay.xml', 'essay'],
      ['items/hotspot.xml', null],
      ['items/two-blanks.xml', 'fill_in_blanks'],
    ]);
    // A third of a point (primes, all or nothing split three ways) puts the bank on 100 points a grade.
    expect(scale).toBe(100);
    const byPath = new Map(questions.map((question) => [question.at.replace('items/', ''), question]));
    expect(byPath.get('truth.xml')!.input).toEqual({
      type: 'yes_no',
      text: 'An octahedron has 12 faces.',
      correct_answer: 'no',
      points: 200,
    });
    expect(byPath.get('truth.xml')!.lost).toEqual(['feedback per answer']);
    expect(byPath.get('capital.xml')!.input).toMatchObject({
      text: 'What is the capital of France?\n\nChoose one.',
      options: [
        { label: 'Lyon', score: 0 },
        { label: 'Paris', score: 100 },
        { label: 'Nice', score: 0 },
      ],
    });
    expect(byPath.get('capital.xml')!.lost).toEqual(['formatting (HTML)']);
    expect(byPath.get('metals.xml')!.input).toMatchObject({
      text: 'Which of these are metals? [the periodic table]',
      options: [
        { label: 'Iron', score: 50 },
        { label: 'Copper', score: 50 },
        { label: 'Oxygen', score: -100 },
      ],
    });
    // Its picture is not in the package: its alt text stays in the text, and it is listed as lost.
    expect(byPath.get('metals.xml')!.lost).toEqual(['images']);
    expect(byPath.get('primes.xml')!.lost).toEqual([
      'all-or-nothing marking (each right choice earns its share here)',
    ]);
    expect(byPath.get('primes.xml')!.regraded).toEqual(['33.333 → 33', '33.333 → 33', '33.333 → 33']);
    // A text entry inside a sentence is a blank; one alone in its paragraph a short answer.
    expect(byPath.get('derivative.xml')!.input).toMatchObject({
      text: 'The derivative gives the [[1]] of a graph.',
      blanks: [{ accepted_answers: ['gradient', 'slope'], points: 100 }],
    });
    expect(byPath.get('derivative.xml')!.lost).toEqual(['case-sensitive matching']);
    // MathML with a TeX annotation comes along as TeX; the feedback every respondent sees is the explanation.
    expect(byPath.get('pi.xml')!.input).toEqual({
      type: 'number',
      text: 'Give \\( \\pi \\) to two decimals.',
      explanation: 'Pi is about 3.14159.',
      correct_number: 3.14,
      tolerance: 0.005,
      points: 300,
    });
    expect(byPath.get('pi.xml')!.lost).toEqual([]);
    // A relative tolerance of 2 % around 100 is 2 either side.
    expect(byPath.get('boiling.xml')!.input).toMatchObject({
      correct_number: 100,
      tolerance: 2,
      points: 100,
    });
    expect(byPath.get('planets.xml')!.input).toMatchObject({
      items: [{ label: 'Mercury' }, { label: 'Venus' }, { label: 'Earth' }],
      points: 100,
    });
    expect(byPath.get('rating.xml')!.input).toMatchObject({ type: 'scale', scale_min: 0, scale_max: 10 });
    // match_correct is all or nothing: here each right pair earns its share.
    expect(byPath.get('pairs.xml')!.input).toEqual({
      type: 'matching',
      text: 'Match each country with its capital.',
      pairs: [
        { prompt: 'France', match: 'Paris' },
        { prompt: 'Italy', match: 'Rome' },
      ],
      extra_matches: [],
      points_per_pair: 50,
    });
    expect(byPath.get('pairs.xml')!.lost).toEqual([
      'all-or-nothing marking (each right pair earns its share here)',
    ]);
    expect(byPath.get('essay.xml')!.input).toEqual({
      type: 'essay',
      text: 'Describe your last holiday in 100 words.',
      points: 100,
    });
    expect(byPath.get('essay.xml')!.lost).toEqual(['its points (none given: 1 point)']);
    expect(byPath.get('hotspot.xml')!.problems).toEqual([
      'items/hotspot.xml, line 8: <qti-hotspot-interaction>: this kind of interaction has no question type here',
    ]);
    expect(byPath.get('two-blanks.xml')!.input).toMatchObject({
      text: 'Water is made of [[1]] and [[2]].',
      blanks: [
        { accepted_answers: ['H'], points: 100 },
        { accepted_answers: ['O'], points: 100 },
      ],
    });
    expect(byPath.get('two-blanks.xml')!.lost).toEqual(['case-sensitive matching']);
  });

  test('the preview summarises it as the text formats do', async () => {
    const { preview } = previewBank(await readPackageBank(await zipFolder('qti3-package')));
    expect(preview).toMatchObject({
      format: 'qti',
      question_count: 13,
      importable: 12,
      not_importable: 1,
      types: {
        yes_no: 1,
        multiple_choice: 1,
        multiple_select: 2,
        fill_in_blanks: 2,
        number: 2,
        ordering: 1,
        scale: 1,
        matching: 1,
        essay: 1,
      },
      points_per_grade: 100,
      regraded: 1,
    });
  });
});

describe('a QTI 2.1 package of our own', () => {
  test('imports in the order of its manifest, camelCase and all', async () => {
    const { bank, scale, questions } = await imported(await zipFolder('qti21-package'));
    expect(scale).toBe(1);
    expect(questions.map((question) => [question.from, question.input?.type ?? null])).toEqual([
      ['choiceInteraction', 'multiple_choice'],
      ['choiceInteraction', 'multiple_select'],
      ['textEntryInteraction', 'fill_in_blanks'],
      ['orderInteraction', 'ordering'],
      ['inlineChoiceInteraction + textEntryInteraction', 'fill_in_blanks'],
      ['matchInteraction', 'matching'],
      ['extendedTextInteraction', 'essay'],
    ]);
    const [choice, multiple, entry, order, blanks, match, essay] = questions;
    // The picture is the package's file beside the item, with its alt text, for the image pipeline.
    expect(choice!.input).toMatchObject({
      text: 'Look at the sign.\n\nWhat does it say?',
      options: [{ score: 1 }, { score: 0 }, { score: 0 }],
    });
    const sign = bank.questions[0]!.image!;
    expect({ name: sign.name, alt: sign.alt }).toEqual({
      name: 'images/sign.png',
      alt: 'NEVER LEAVE LUGGAGE UNATTENDED',
    });
    expect(
      Buffer.from(sign.bytes).equals(readFileSync(path.join(FIXTURES, 'qti21-package/images/sign.png'))),
    ).toBe(true);
    // Unmapped choices take the mapping's default value.
    expect(multiple!.input).toMatchObject({
      options: [
        { label: 'Hydrogen', score: 1 },
        { label: 'Helium', score: -2 },
        { label: 'Carbon', score: -2 },
        { label: 'Oxygen', score: 1 },
        { label: 'Nitrogen', score: -2 },
        { label: 'Chlorine', score: -1 },
      ],
    });
    expect(entry!.input).toMatchObject({
      text: "Identify the missing word in this famous quote from Shakespeare's Richard III.\n\nNow is the winter of our discontent\nMade glorious summer by this sun of [[1]];",
      blanks: [{ accepted_answers: ['York'], points: 1 }],
    });
    expect(entry!.lost).toEqual(['case-sensitive matching', 'answers worth part of the grade']);
    expect(order!.input).toMatchObject({
      items: [{ label: 'Michael Schumacher' }, { label: 'Rubens Barrichello' }, { label: 'Jenson Button' }],
    });
    // An inline choice and a caseless text entry, each scored by its own mapping, summed.
    expect(blanks!.input).toEqual({
      type: 'fill_in_blanks',
      text: 'Paris stands on the [[1]], which flows into the [[2]].',
      blanks: [
        { options: ['Loire', 'Seine', 'Rhône'], correct_option: 1, points: 2 },
        { accepted_answers: ['English Channel', 'La Manche'], points: 1 },
      ],
    });
    expect(blanks!.lost).toEqual([]);
    // The match set's unused choice is an extra match; the mapping gives each pair its point.
    expect(match!.input).toEqual({
      type: 'matching',
      text: 'Who wrote each play?',
      pairs: [
        { prompt: 'Hamlet', match: 'Shakespeare' },
        { prompt: 'Faust', match: 'Goethe' },
      ],
      extra_matches: [{ label: 'Molière' }],
      points_per_pair: 1,
    });
    expect(match!.lost).toEqual([]);
    expect(essay!.input).toMatchObject({ type: 'essay', points: 1 });
  });
});

describe('packages that are not read', () => {
  const itemXml = readFileSync(path.join(FIXTURES, 'qti3-package/items/capital.xml'));
  const manifest = (href: string) =>
    `<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="m"><resources><resource identifier="i" type="imsqti_item_xmlv3p0" href="${href}"/></resources></manifest>`;

  test('a zip without a manifest, or with it in a folder, says what to send instead', async () => {
    expect(await refusal(await writeZip([{ path: 'item.xml', bytes: itemXml }]))).toContain(
      'upload_id: QTI package: the zip has no imsmanifest.xml: it is not a QTI content package',
    );
    expect(
      await refusal(await writeZip([{ path: 'bank/imsmanifest.xml', bytes: manifest('item.xml') }])),
    ).toContain('imsmanifest.xml is in "bank/", not at the top of the zip');
  });

  test('bytes that are not a zip, or a zip cut short, are refused as damaged', async () => {
    expect(await refusal(Buffer.from('<quiz></quiz>'))).toContain('the zip file is damaged or cut short');
    const whole = await zipFolder('qti21-package');
    expect(await refusal(whole.subarray(0, Math.floor(whole.length * 0.6)))).toContain(
      'the zip file is damaged or cut short',
    );
  });

  test('a path out of the package ("../") is refused before anything is read', async () => {
    // yazl will not write such a name: the same length of name is written, then changed in place.
    const zip = await writeZip([
      { path: 'imsmanifest.xml', bytes: manifest('aa/evil.xml') },
      { path: 'aa/evil.xml', bytes: itemXml },
    ]);
    const planted = Buffer.from(zip.toString('latin1').replaceAll('aa/evil.xml', '../evil.xml'), 'latin1');
    expect(await refusal(planted)).toContain(
      'the zip names "../evil.xml", a path outside the package: refused, and nothing was read',
    );
  });

  test('a zip bomb is refused by its ratio, and an entry that outgrows its header on the stream', async () => {
    const zeros = Buffer.alloc(ZIP_LIMITS.entryBytesMax * 4);
    const bomb = await writeZip([
      { path: 'imsmanifest.xml', bytes: manifest('item.xml') },
      { path: 'item.xml', bytes: zeros },
    ]);
    expect(bomb.length).toBeLessThan(100_000);
    expect(await refusal(bomb)).toMatch(/"item\.xml" inflates \d+ times over: this looks like a zip bomb/);

    // An entry whose header lies about its size is stopped while it inflates.
    const small = await writeZip([
      { path: 'imsmanifest.xml', bytes: manifest('item.xml') },
      { path: 'item.xml', bytes: Buffer.alloc(300_000, 0x20) },
    ]);
    const lying = Buffer.from(small);
    // The central directory's entry for item.xml: uncompressed size at offset 24 from its signature.
    const central = lying.lastIndexOf(Buffer.from('PK\u0001\u0002', 'latin1'));
    lying.writeUInt32LE(1000, central + 24);
    expect(await refusal(lying)).toMatch(/item\.xml.*(damaged|too many bytes|inflates past)/);
  });

  test('a package of too many entries is refused by count', async () => {
    const files = Array.from({ length: ZIP_LIMITS.entriesMax + 1 }, (_, index) => ({
      path: `f${index}.txt`,
      bytes: 'x',
    }));
    expect(await refusal(await writeZip(files))).toContain(
      `holds ${ZIP_LIMITS.entriesMax + 1} entries, more than the ${ZIP_LIMITS.entriesMax}`,
    );
  });

  test('an item with a DOCTYPE (XXE, billion laughs) is listed as unreadable, its entities never expanded', async () => {
    const hostile = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="x" title="&lol2;"/>`;
    const { questions } = await imported(
      await writeZip([
        { path: 'imsmanifest.xml', bytes: manifest('item.xml') },
        { path: 'item.xml', bytes: hostile },
      ]),
    );
    expect(questions).toHaveLength(1);
    expect(questions[0]!.input).toBeUndefined();
    expect(questions[0]!.problems[0]).toContain('item.xml: line 1: the XML declares a DOCTYPE');
  });

  test('the zip reader reads only what it is asked for', async () => {
    const zip = await openZip(await zipFolder('qti21-package'));
    try {
      expect(zip.paths).toContain('imsmanifest.xml');
      await expect(zip.read('missing.xml')).rejects.toThrow('the package has no file "missing.xml"');
    } finally {
      zip.close();
    }
  });
});

const quiz = (questions: QuestionRecord[]): ExportableQuiz => ({
  quiz_id: 'quiz_1',
  title: 'Every type & more',
  questions,
});

/**
 * The fields a record's type builds back: the defaults the tools fill in left out (an ordering's
 * points_per_item, a scale's labels, an essay's empty word limits and rubric, or its points
 * beside a rubric, which the rubric's levels replace).
 */
function held(fields: Record<string, unknown>): Record<string, unknown> {
  const { points_per_item: perItem, scale_labels: _labels, ...rest } = fields;
  if (rest.type === 'grid') return { ...rest, points_per_item: perItem };
  if (rest.type !== 'essay') return rest;
  const { min_words, max_words, rubric, points, ...essay } = rest;
  return {
    ...essay,
    ...(((rubric as unknown[] | undefined) ?? []).length > 0 ? { rubric } : { points }),
    ...(min_words !== null && min_words !== undefined ? { min_words } : {}),
    ...(max_words !== null && max_words !== undefined ? { max_words } : {}),
  };
}

/** A record as the tools take it back: no id, no null explanation. */
const asInput = ({ question_id: _id, explanation, ...fields }: QuestionRecord) => ({
  ...fields,
  ...(explanation ? { explanation } : {}),
});

describe('ours → QTI 3.0 → ours', () => {
  test('every type comes back with every field the format holds', async () => {
    const out = await exportQti(quiz(EVERY_TYPE));
    expect(out.items).toBe(EVERY_TYPE.length);
    const { bank, scale, questions } = await imported(out.bytes);
    expect(bank.problems).toEqual([]);
    expect(scale).toBe(1);
    expect(questions.map((question) => question.problems)).toEqual(EVERY_TYPE.map(() => []));
    expect(questions.map((question) => question.regraded)).toEqual(EVERY_TYPE.map(() => []));
    expect(questions.map((question) => question.lost)).toEqual(EVERY_TYPE.map(() => []));
    // The ordering's and the scale's defaults are what the tools fill in; the rest is field for field.
    const inputs = questions.map((question) => question.input);
    expect(inputs).toEqual(EVERY_TYPE.map((record) => held(asInput(record) as Record<string, unknown>)));
  });

  test('the export says per question what QTI does not hold', async () => {
    const n = EVERY_TYPE.length;
    const out = await exportQti(
      quiz([
        ...EVERY_TYPE,
        {
          question_id: 'o1',
          type: 'ordering',
          text: 'Order the months.',
          items: [{ label: 'January' }, { label: 'February' }, { label: 'March' }],
          points: 1,
          points_per_item: 2,
          explanation: null,
        },
        {
          question_id: 's1',
          type: 'scale',
          text: 'Rate us.',
          scale_min: 1,
          scale_max: 5,
          scale_labels: ['Poor', 'Great'],
          explanation: null,
        },
        {
          question_id: 'e1',
          type: 'essay',
          text: 'Write to Sam.',
          points: 3,
          rubric: [],
          min_words: 25,
          max_words: 35,
          explanation: null,
        },
        { question_id: 'd1', type: 'drawing' } as unknown as QuestionRecord,
      ]),
    );
    expect(out.items).toBe(n + 3);
    const typed =
      'matching that ignores inner spaces and Unicode forms (QTI compares the text as typed, case aside)';
    const decimalComma = 'answers written with a decimal comma ("3,5"), which QTI does not read as numbers';
    expect(out.notes).toEqual([
      { n: 4, question_id: 'q4', type: 'short_text', lost: [typed] },
      { n: 5, question_id: 'q5', type: 'number', lost: [decimalComma] },
      { n: 6, question_id: 'q6', type: 'number', lost: [decimalComma] },
      {
        n: 10,
        question_id: 'q10',
        type: 'fill_in_blanks',
        lost: [`${typed.replace('matching', 'matching of typed blanks')}`],
      },
      {
        n: n + 1,
        question_id: 'o1',
        type: 'ordering',
        lost: ["points_per_item (QTI's package gives 6 points for the whole order right, none for part)"],
      },
      { n: n + 2, question_id: 's1', type: 'scale', lost: ["scale_labels (the ends' words)"] },
      {
        n: n + 3,
        question_id: 'e1',
        type: 'essay',
        lost: ['min_words and max_words (QTI has no word limits)'],
      },
      {
        n: n + 4,
        question_id: 'd1',
        type: 'drawing',
        lost: ['the whole question: drawing questions are not written to QTI yet'],
      },
    ]);
    const { questions } = await imported(out.bytes);
    expect(questions[n]!.problems).toEqual([]);
    expect(questions[n]!.input).toMatchObject({ type: 'ordering', points: 6 });
    expect(questions[n + 1]!.input).toMatchObject({ type: 'scale', scale_min: 1, scale_max: 5 });
    expect(questions[n + 2]!.input).toEqual({ type: 'essay', text: 'Write to Sam.', points: 3 });
  });

  test('pictures go into the package beside the items, and come back with their alt text', async () => {
    const read = new Map(
      ['a', 'b', 'c'].map((letter) => [pictureUrl(letter.repeat(64)), Buffer.from(`picture ${letter}`)]),
    );
    const out = await exportQti(quiz([WITH_PICTURES, WITH_PICTURES]), read);
    expect(out.notes).toEqual([]);
    const zip = await openZip(out.bytes);
    try {
      // Each file once, though two items show it; the manifest lists it among each item's files.
      const pictures = ['a', 'b', 'c'].map((letter) => `images/${letter.repeat(64)}.png`);
      expect(zip.paths).toEqual([
        'imsmanifest.xml',
        'assessment-test.xml',
        'items/item-1.xml',
        'items/item-2.xml',
        ...pictures,
      ]);
      const manifest = (await zip.read('imsmanifest.xml')).toString('utf8');
      for (const picture of pictures) expect(manifest.split(`<file href="${picture}"/>`)).toHaveLength(3);
      const item = (await zip.read('items/item-1.xml')).toString('utf8');
      // In a paragraph (an <img> straight in the item body is not valid), options' inside their choice.
      expect(item).toContain(
        `<p><img src="../${pictures[0]}" alt="Flags of the world" width="4" height="3"/></p>`,
      );
      expect(item).toContain(
        `<qti-simple-choice identifier="C2">That one <img src="../${pictures[2]}" alt="Red &amp; &quot;white&quot; stripes" width="2" height="2"/></qti-simple-choice>`,
      );
    } finally {
      zip.close();
    }
    const { bank, questions } = await imported(out.bytes);
    expect(questions[0]!.input).toMatchObject({ text: "Which flag is Japan's?", options: [{}, {}, {}] });
    const [first] = bank.questions;
    const seen = (image: { name: string; alt: string | null; bytes: Uint8Array } | undefined) =>
      image && { name: image.name, alt: image.alt, bytes: Buffer.from(image.bytes).toString() };
    expect(seen(first!.image)).toEqual({
      name: `images/${'a'.repeat(64)}.png`,
      alt: 'Flags of the world',
      bytes: 'picture a',
    });
    expect(first!.answers.map((answer) => seen(answer.image))).toEqual([
      { name: `images/${'b'.repeat(64)}.png`, alt: 'A red disc on white', bytes: 'picture b' },
      { name: `images/${'c'.repeat(64)}.png`, alt: 'Red & "white" stripes', bytes: 'picture c' },
      undefined,
    ]);
  });

  test('a picture the export cannot read is listed as lost, and left out', async () => {
    const out = await exportQti(
      quiz([WITH_PICTURES]),
      new Map([[pictureUrl('b'.repeat(64)), Buffer.from('b')]]),
    );
    expect(out.notes).toEqual([
      {
        n: 1,
        question_id: 'p1',
        type: 'multiple_choice',
        lost: [
          'its picture (its file could not be read)',
          'the picture of option 2 (its file could not be read)',
        ],
      },
    ]);
    const zip = await openZip(out.bytes);
    expect(zip.paths.filter((entry) => entry.startsWith('images/'))).toEqual([
      `images/${'b'.repeat(64)}.png`,
    ]);
    zip.close();
  });

  test('the same quiz exports to the same bytes', async () => {
    const [first, second] = await Promise.all([exportQti(quiz(EVERY_TYPE)), exportQti(quiz(EVERY_TYPE))]);
    expect(first.bytes.equals(second.bytes)).toBe(true);
  });
});

describe("each type's exporting and importing", () => {
  test('are inverses: a record told in shapes is built back into its own fields', () => {
    for (const record of EVERY_TYPE) {
      const definition = QUESTION_TYPE_DEFINITIONS.find((candidate) => candidate.name === record.type)!;
      const told = definition.exporting!(record as never);
      expect(told.shape).toBe(definition.importing!.shape);
      const fields = definition.importing!.build(
        told,
        (exact) => exact,
        () => undefined,
      );
      const {
        question_id: _id,
        type: _type,
        text: _text,
        explanation: _explanation,
        ...typed
      } = record as unknown as Record<string, unknown>;
      expect(held({ type: record.type, ...fields })).toEqual(held({ type: record.type, ...typed }));
    }
  });
});
