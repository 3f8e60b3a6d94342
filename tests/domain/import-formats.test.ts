// The import readers, one format at a time, without the app: each fixture gives the expected
// question count and types, with what it loses and what cannot be read listed per question, and
// the scoring rule picks one scale per bank and lists what it rounds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assemble, detectFormat, readBank } from '../../src/domain/import/assemble';
import { csvTemplate } from '../../src/domain/import/csv';
import { previewImport } from '../../src/domain/import/import-questions';
import { isDomainError } from '../../src/domain/errors';
import { decodeEntities } from '../../src/domain/import/html-text';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/import', name), 'utf8');

const importedOf = (text: string) => assemble(readBank(text, undefined));

/** The refusal's text, or fails when the text was read. */
function refusal(text: string, format?: Parameters<typeof readBank>[1]): string {
  try {
    readBank(text, format);
  } catch (error) {
    if (isDomainError(error)) return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('format detection', () => {
  test.each([
    ['bank.gift', 'gift'],
    ['bank.aiken.txt', 'aiken'],
    ['bank.csv', 'csv'],
    ['bank.moodle.xml', 'moodle_xml'],
  ])('%s is %s', (name, format) => {
    expect(detectFormat(fixture(name))).toBe(format);
  });

  test('plain prose is no format, and the refusal says how to name one', () => {
    expect(detectFormat('Notes on the water cycle.')).toBeNull();
    expect(refusal('Notes on the water cycle.')).toContain(
      'format: could not tell the format: send format, one of gift, aiken, moodle_xml, csv',
    );
  });
});

describe('GIFT', () => {
  const { scale, questions } = importedOf(fixture('bank.gift'));

  test('every construct: types, titles, lines, losses', () => {
    expect(
      questions.map((question) => [question.at, question.name ?? null, question.input?.type ?? null]),
    ).toEqual([
      ['line 5', 'Capital of France', 'multiple_choice'],
      ['line 13', 'Sun', 'yes_no'],
      ['line 15', null, 'yes_no'],
      ['line 17', 'Escapes', 'multiple_choice'],
      ['line 22', 'Weights', 'multiple_select'],
      ['line 28', 'Thirds', 'multiple_select'],
      ['line 35', 'Short', 'short_text'],
      ['line 37', 'Number', 'number'],
      ['line 39', 'Range', 'number'],
      ['line 41', 'Multi numeric', 'number'],
      ['line 46', 'Missing word', 'fill_in_blanks'],
      ['line 48', 'Matching', 'matching'],
      ['line 54', 'Essay', 'essay'],
      ['line 56', 'Multiline', 'multiple_choice'],
      ['line 64', 'Markdown', 'yes_no'],
      ['line 66', null, null],
    ]);
    // A $CATEGORY: line's path is named on each question after it: a quiz has no categories.
    expect(questions[1]!.lost).toEqual([
      'feedback per answer',
      'its Moodle category ($course$/Geography/Capitals)',
    ]);
    expect(questions[13]!.lost).toEqual([
      'images',
      'formatting (HTML)',
      'its Moodle category ($course$/Geography/Capitals)',
    ]);
    expect(questions[14]!.lost).toContain('its Moodle category ($course$/Science)');
    expect(questions[13]!.input!.text).toBe('A question\nover several lines\nwith an image [map]');
    // GIFT has no grade: each pair of a matching question reads as worth one.
    expect(questions[11]!.input).toMatchObject({
      pairs: [
        { prompt: 'Canada', match: 'Ottawa' },
        { prompt: 'Italy', match: 'Rome' },
        { prompt: 'Japan', match: 'Tokyo' },
      ],
      extra_matches: [],
      points_per_pair: scale,
    });
    expect(questions[12]!.input).toEqual({
      type: 'essay',
      text: 'Write a short essay about your holidays.',
      points: scale,
    });
    expect(questions[15]!.problems).toEqual(['line 66: no {answers}: a description, not a question']);
  });

  test('escapes, general feedback, the missing word and number ranges', () => {
    expect(questions[3]!.input).toMatchObject({
      text: 'Which of these is written with a colon: a:b, and braces {x}?',
      options: [{ label: 'a:b uses \\ and = and ~ and #' }, { label: 'none' }],
    });
    expect(questions[0]!.input!.explanation).toBe('Paris has been the capital since 987.');
    // The missing word is one blank, a choice among its answers.
    expect(questions[10]!.input).toMatchObject({
      text: 'The cat sat on the [[1]] in the sun.',
      blanks: [{ options: ['mat', 'hat', 'bat'], correct_option: 0 }],
    });
    expect(questions[8]!.input).toMatchObject({ correct_number: 3, tolerance: 2 });
    expect(questions[9]!.input).toMatchObject({ correct_number: 1822, tolerance: 0 });
    expect(questions[9]!.lost).toContain('answers worth part of the grade');
    expect(questions[6]!.input).toMatchObject({ accepted_answers: ['Pacific', 'pacific ocean'] });
  });

  test('weights in thirds: the bank takes 100 points a grade and lists the rounded question alone', () => {
    expect(scale).toBe(100);
    expect(questions[4]!.input!.options).toEqual([
      { label: 'Two', score: 50 },
      { label: 'Three', score: 50 },
      { label: 'Four', score: -100 },
    ]);
    expect(questions[5]!.regraded).toEqual(['33.333 → 33', '33.333 → 33', '33.333 → 33']);
    expect(questions.filter((question) => question.regraded.length > 0)).toHaveLength(1);
  });

  test('an unclosed brace refuses the file with its line', () => {
    expect(refusal('::A:: Fine {T}\n\n// note\n::B:: Broken {=a ~b\n', 'gift')).toContain(
      'text: gift: line 4: the answers open with { but never close: add the }',
    );
  });

  test('whole-number weights keep one point a grade', () => {
    expect(importedOf('Q? {=yes ~no}\n\nR? {TRUE}').scale).toBe(1);
    expect(importedOf('Q? {~%50%a ~%50%b ~%0%c}').scale).toBe(10);
  });

  test('a text format marker on the prompt, each answer and the feedback is read, never shown', () => {
    const [sky, pairs] = importedOf(
      [
        '[plain]Which colour is the sky? {',
        '  =[plain]blue',
        '  ~[html]<b>red</b> &amp; pink',
        '  ~[moodle]green',
        '  ~[markdown]**grey**',
        '  ####[html]<p>Air <i>scatters</i> blue light.</p>',
        '}',
        '',
        'Match them. {=[plain]Canada -> Ottawa =Italy -> Rome}',
      ].join('\n'),
    ).questions;
    expect(sky!.input).toMatchObject({
      text: 'Which colour is the sky?',
      options: [{ label: 'blue' }, { label: 'red & pink' }, { label: 'green' }, { label: '**grey**' }],
      explanation: 'Air scatters blue light.',
    });
    // Our rich text is not Markdown: its text stays as written and the preview says so.
    expect(sky!.lost).toEqual(['formatting (HTML)', 'formatting (Markdown)']);
    expect(pairs!.input!.pairs).toEqual([
      { prompt: 'Canada', match: 'Ottawa' },
      { prompt: 'Italy', match: 'Rome' },
    ]);
  });

  test("an answer or feedback without a marker takes the prompt's format", () => {
    const [question] = importedOf(
      '[html]Sky &amp; sea? {=<b>blue</b> ~[plain]<b> ####<i>Rayleigh</i>}',
    ).questions;
    expect(question!.input).toMatchObject({
      text: 'Sky & sea?',
      options: [{ label: 'blue' }, { label: '<b>' }],
      explanation: 'Rayleigh',
    });
  });

  test('numerical answers as Moodle writes them: feedback for a wrong number, weights, ranges', () => {
    const questions = importedOf(
      [
        'Half of six? {#3:2~#Completely wrong}',
        'Three? {#=3:0#Right=%50%3:1#Close}',
        'One to five? {#1..5}',
        'Spaced? {# =%100% 1 .. 5 #Fine ~#No}',
        'PHP numbers? {#.5:+0.25}',
        // Moodle's own export of a numerical question.
        'Grant? {#\n\t=%100%1822:0#Right\n\t=%50%1822:2#Close\n\t~#Read again\n}',
      ].join('\n\n'),
    ).questions;
    expect(questions.map((question) => question.problems)).toEqual([[], [], [], [], [], []]);
    expect(questions.map((question) => question.input)).toMatchObject([
      { type: 'number', text: 'Half of six?', correct_number: 3, tolerance: 2 },
      { type: 'number', correct_number: 3, tolerance: 0 },
      { type: 'number', correct_number: 3, tolerance: 2 },
      { type: 'number', correct_number: 3, tolerance: 2 },
      { type: 'number', correct_number: 0.5, tolerance: 0.25 },
      { type: 'number', correct_number: 1822, tolerance: 0 },
    ]);
    // The wrong-number feedback has no place of ours; it is named, not shown as text.
    expect(questions[0]!.lost).toEqual(['feedback per answer']);
    expect(questions[1]!.lost).toEqual(['feedback per answer', 'answers worth part of the grade']);
    expect(questions[2]!.lost).toEqual([]);
  });

  test('a numerical block with no right number says how to write one', () => {
    expect(importedOf('Q? {#~#wrong}').questions[0]!.problems).toEqual([
      'line 1: no right number after # (write {#3}, {#3:0.5} or {#1..5})',
    ]);
  });

  test('text after a true/false, number or essay is more of the prompt; after choices it is a missing word', () => {
    const questions = importedOf(
      ['Is this everything.{T}";', 'About {#3} apples?', 'Write {} now.', 'The {=cat} sat.'].join('\n\n'),
    ).questions;
    expect(questions.map((question) => question.input)).toEqual([
      { type: 'yes_no', text: 'Is this everything.";', points: 1, correct_answer: 'yes' },
      { type: 'number', text: 'About apples?', points: 1, correct_number: 3, tolerance: 0 },
      { type: 'essay', text: 'Write now.', points: 1 },
      { type: 'fill_in_blanks', text: 'The [[1]] sat.', blanks: [{ accepted_answers: ['cat'], points: 1 }] },
    ]);
    expect(questions.flatMap((question) => question.problems)).toEqual([]);
  });
});

describe('Aiken', () => {
  test('four questions, with or without blank lines between them', () => {
    const { questions } = importedOf(fixture('bank.aiken.txt'));
    expect(
      questions.map((question) => [question.at, question.input?.options?.map((option) => option.score)]),
    ).toEqual([
      ['line 1', [1, 0]],
      ['line 6', [0, 1, 0, 0]],
      ['line 13', [0, 1, 0]],
      ['line 18', [0, 1]],
    ]);
  });

  test('an ANSWER naming no option, and a question without ANSWER, are listed with their line', () => {
    const { questions } = assemble(readBank('Q1?\nA. x\nB. y\nANSWER: C\n\nQ2?\nA. x\nB. y\n', 'aiken'));
    expect(questions[0]!.problems).toEqual(['line 4: ANSWER: C names no option (A, B)']);
    expect(questions[1]!.problems).toEqual(['line 6: no ANSWER: line after the options']);
  });
});

describe('CSV', () => {
  test('every type, quoted cells, and a type not held yet', () => {
    const { questions } = importedOf(fixture('bank.csv'));
    expect(questions.map((question) => question.input?.type ?? question.problems[0])).toEqual([
      'yes_no',
      'multiple_choice',
      'multiple_select',
      'short_text',
      'number',
      'short_text',
      expect.stringMatching(/^line 8: type "essay" is not one of yes_no, multiple_choice, /),
    ]);
    expect(questions[1]!.input!.options).toEqual([
      { label: 'Shark', score: 0 },
      { label: 'Dolphin', score: 2 },
      { label: 'Trout', score: 0 },
    ]);
    expect(questions[4]!.input).toMatchObject({ correct_number: 3.14, tolerance: 0.005, points: 3 });
    expect(questions[5]!.input).toMatchObject({
      text: 'A question with a comma, and "quotes"',
      explanation: 'Explanation, quoted',
    });
  });

  test('the template imports whole', () => {
    const { preview } = previewImport({ text: csvTemplate() });
    expect(preview).toMatchObject({ format: 'csv', question_count: 6, importable: 6, notes: [] });
  });

  test('bad cells are listed by line; an unknown column by its place', () => {
    const { questions, preview } = previewImport({
      text: 'type,text,answer,colour\nyes_no,Q?,maybe,red\nmultiple_choice,R?,9,\nnumber,S?,many,\n',
    });
    expect(questions.map((question) => question.problems)).toEqual([
      ['line 2: answer must be yes or no'],
      ['line 3: give at least 2 options, in option_1, option_2 and so on'],
      ['line 4: answer must be the value, within tolerance'],
    ]);
    expect(preview.file_problems).toEqual([
      'line 1, column 4: "colour" is not a column of the layout; left out',
    ]);
  });
});

describe('Moodle XML', () => {
  const { scale, questions } = importedOf(fixture('bank.moodle.xml'));

  test('types map as the reference says; what has no type here is listed with its element', () => {
    expect(questions.map((question) => [question.from, question.input?.type ?? null])).toEqual([
      ['multichoice', 'multiple_choice'],
      ['multichoice', 'multiple_select'],
      ['truefalse', 'yes_no'],
      ['shortanswer', 'short_text'],
      ['numerical', 'number'],
      ['matching', 'matching'],
      ['essay', 'essay'],
      ['multianswer', 'fill_in_blanks'],
      ['multianswer', 'fill_in_blanks'],
      ['multichoice', 'multiple_choice'],
      ['calculated', null],
      ['description', null],
    ]);
    expect(questions[10]!.problems).toEqual([
      '<question> 12 (line 103): no <answer> with a formula and a fraction above 0',
    ]);
  });

  test('CDATA and HTML become text; images, penalties and feedback are listed as lost', () => {
    expect(scale).toBe(10);
    expect(questions[0]!.input).toMatchObject({
      text: 'What is the capital of Italy?',
      explanation: 'Rome & nothing else.',
      options: [
        { label: 'Rome', score: 10 },
        { label: 'Milan', score: 0 },
        { label: 'Paris', score: -5 },
      ],
    });
    expect(questions[0]!.lost).toEqual([
      'formatting (HTML)',
      'penalty per try',
      'combined feedback',
      'feedback per answer',
      'alt text of answer 1\'s picture (given "Picture")',
      // The <question type="category"> before it: named, as a quiz has no categories.
      'its Moodle category ($course$/top/Imported)',
    ]);
    expect(questions[1]!.input!.options!.map((option) => option.score)).toEqual([10, 10, -20]);
    expect(questions[3]!.input).toMatchObject({
      text: 'Who wrote Hamlet?',
      accepted_answers: ['Shakespeare', 'William Shakespeare'],
    });
    expect(questions[3]!.lost).toEqual([
      'formatting (HTML)',
      'case-sensitive matching',
      'its Moodle category ($course$/top/Imported)',
      'answers worth part of the grade',
    ]);
    expect(questions[4]!.input).toMatchObject({ correct_number: 9.81, tolerance: 0.05 });
    expect(questions[4]!.lost).toEqual([
      'units',
      'an answer for any other number',
      'its Moodle category ($course$/top/Imported)',
    ]);
  });

  test('matching, essay and cloze: distractors, word limits, blanks and what they cannot hold', () => {
    // The grade is split evenly among the pairs; an empty sub-question's answer is a distractor.
    expect(questions[5]!.input).toEqual({
      type: 'matching',
      text: 'Match them.',
      pairs: [
        { prompt: 'Canada', match: 'Ottawa' },
        { prompt: 'Italy', match: 'Rome' },
        { prompt: 'Japan', match: 'Tokyo' },
      ],
      extra_matches: [{ label: 'Sydney' }],
      points_per_pair: 10,
    });
    expect(questions[6]!.input).toEqual({ type: 'essay', text: 'Discuss.', points: 50, min_words: 50 });
    expect(questions[6]!.lost).toEqual([
      'information for graders',
      'file attachments',
      'its Moodle category ($course$/top/Imported)',
    ]);
    // A numerical sub-question among blanks has no blank of ours: named as lost, the rest kept.
    expect(questions[7]!.problems).toEqual([]);
    expect(questions[7]!.input).toMatchObject({
      type: 'fill_in_blanks',
      text: 'Paris is in [[1]], on the [[2]]; it has _____ people.',
    });
    expect(questions[7]!.lost).toContain(
      'embedded answer 3 (NUMERICAL): a number with a tolerance, which no blank holds',
    );
    // Each variant: escapes, an empty weight (1), the grade shared by the weights (14 over 7).
    expect(questions[8]!.input).toEqual({
      type: 'fill_in_blanks',
      text: '[[1]] and [[2]] and [[3]] and [[4]] and [[5]]',
      blanks: [
        { accepted_answers: ['red } or ~ blue'], points: 40 },
        { accepted_answers: ['Moodle'], points: 20 },
        { options: ['yes', 'no'], correct_option: 0, points: 20 },
        { options: ['up', 'down'], correct_option: 0, points: 20 },
        { options: ['a & b', 'c'], correct_option: 0, points: 40 },
      ],
    });
    expect(questions[8]!.lost).toEqual([
      'case-sensitive matching',
      'choices shown as buttons (a blank shows a list)',
      'its Moodle category ($course$/top/Imported)',
    ]);
  });

  test('a cloze question with partial credit and feedback names them', () => {
    const { questions: read } = importedOf(
      '<quiz><question type="multianswer"><questiontext format="html"><text><![CDATA[<p>In {1:SA:=France#Yes~%50%Frankreich~*#No} on the {1:MC:Rhine~=Seine}.</p>]]></text></questiontext></question></quiz>',
    );
    expect(read[0]!.input).toEqual({
      type: 'fill_in_blanks',
      text: 'In [[1]] on the [[2]].',
      blanks: [
        { accepted_answers: ['France'], points: 1 },
        { options: ['Rhine', 'Seine'], correct_option: 1, points: 1 },
      ],
    });
    expect(read[0]!.lost).toEqual(['feedback per answer', 'answers worth part of the grade']);
    const unclosed = importedOf(
      '<quiz><question type="multianswer"><questiontext><text>A {1:SA:=open</text></questiontext></question></quiz>',
    ).questions[0]!;
    expect(unclosed.problems).toEqual([
      '<question> 1 (line 1): an embedded answer {1:SA:… never closes with }',
    ]);
  });

  test('a cloze whose one embedded answer is a number, or several right choices, becomes that question', () => {
    const cloze = (body: string, grade = 4) =>
      importedOf(
        `<quiz><question type="multianswer"><questiontext format="html"><text><![CDATA[<p>${body}</p>]]></text></questiontext><defaultgrade>${grade}</defaultgrade></question></quiz>`,
      ).questions[0]!;
    const number = cloze('Pi is about {2:NUMERICAL:=3.14:0.01#Good~%50%3:0.2~*#No}.');
    expect(number.problems).toEqual([]);
    expect(number.input).toEqual({
      type: 'number',
      text: 'Pi is about _____.',
      correct_number: 3.14,
      tolerance: 0.01,
      points: 4,
    });
    expect(number.lost).toEqual(
      expect.arrayContaining(['feedback per answer', 'an answer for any other number']),
    );
    const many = cloze('Primes: {1:MULTIRESPONSE:%50%2~%50%3~%-100%4}', 2);
    expect(many.problems).toEqual([]);
    expect(many.input).toMatchObject({
      type: 'multiple_select',
      text: 'Primes: _____',
      options: [
        { label: '2', score: 1 },
        { label: '3', score: 1 },
        { label: '4', score: -2 },
      ],
    });
    const bad = cloze('{1:NUMERICAL:=three}');
    expect(bad.problems).toEqual([
      '<question> 1 (line 1), embedded answer 1 (NUMERICAL): "three" is not a number with its tolerance (write =3.14:0.01)',
    ]);
  });

  test('among other blanks, a number or several right choices are named as lost, and the grade still counts their weight', () => {
    const [read] = importedOf(
      '<quiz><question type="multianswer"><questiontext><text>{1:SA:=a} {1:NM:=2:0} {2:MC:=b~c} {1:MRH:=d~e}</text></questiontext><defaultgrade>10</defaultgrade></question></quiz>',
    ).questions;
    expect(read!.problems).toEqual([]);
    // Moodle gives each blank grade × weight / 5, the weights of all four.
    expect(read!.input).toEqual({
      type: 'fill_in_blanks',
      text: '[[1]] _____ [[2]] _____',
      blanks: [
        { accepted_answers: ['a'], points: 2 },
        { options: ['b', 'c'], correct_option: 0, points: 4 },
      ],
    });
    expect(read!.lost).toEqual([
      'choices shown as buttons (a blank shows a list)',
      'embedded answer 2 (NM): a number with a tolerance, which no blank holds',
      'embedded answer 4 (MRH): several right choices, which no blank holds',
    ]);
    const [none] = importedOf(
      '<quiz><question type="multianswer"><questiontext><text>{1:NM:=2} and {1:NM:=3}</text></questiontext></question></quiz>',
    ).questions;
    expect(none!.problems).toEqual([
      '<question> 1 (line 1): none of its 2 embedded answers can be a blank here (blanks are typed text or one choice from a list)',
    ]);
  });

  test('type="cloze", the name Moodle\'s own export writes, is read as multianswer', () => {
    const body =
      '<questiontext format="html"><text><![CDATA[<p>{2:SA:=Paris} is in {1:MC:=France~Spain}.</p>]]></text></questiontext><defaultgrade>6</defaultgrade>';
    const [cloze] = importedOf(`<quiz><question type="cloze">${body}</question></quiz>`).questions;
    const [multianswer] = importedOf(
      `<quiz><question type="multianswer">${body}</question></quiz>`,
    ).questions;
    expect(cloze!.problems).toEqual([]);
    expect(cloze!.input).toEqual({
      type: 'fill_in_blanks',
      text: '[[1]] is in [[2]].',
      blanks: [
        { accepted_answers: ['Paris'], points: 4 },
        { options: ['France', 'Spain'], correct_option: 0, points: 2 },
      ],
    });
    expect(cloze!.input).toEqual(multianswer!.input);
    expect(cloze!.lost).toEqual(multianswer!.lost);
    expect(cloze!.from).toBe('cloze');
  });

  test('malformed XML and other XML formats are refused with the line', () => {
    expect(refusal('<quiz>\n<question type="truefalse">\n</quiz>', 'moodle_xml')).toContain(
      'text: moodle_xml: line 3, column 7: unexpected close tag: the XML is not well-formed',
    );
    expect(refusal('<questestinterop/>', 'moodle_xml')).toContain(
      'this is a QTI 1.2 document, which cannot be imported: export the questions as QTI 2.1 or 3.0',
    );
  });

  test('a QTI item pasted as XML is read as QTI, not refused as Moodle XML', () => {
    const item =
      '<?xml version="1.0"?><qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="a"><qti-response-declaration identifier="R" cardinality="single" base-type="identifier"><qti-correct-response><qti-value>y</qti-value></qti-correct-response></qti-response-declaration><qti-item-body><qti-choice-interaction response-identifier="R" max-choices="1"><qti-prompt>Pick y.</qti-prompt><qti-simple-choice identifier="x">X</qti-simple-choice><qti-simple-choice identifier="y">Y</qti-simple-choice></qti-choice-interaction></qti-item-body></qti-assessment-item>';
    const bank = readBank(item, undefined);
    expect(bank.format).toBe('qti');
    expect(assemble(bank).questions.map((question) => [question.at, question.input?.type])).toEqual([
      ['the item "a"', 'multiple_choice'],
    ]);
  });
});

describe('Moodle XML ordering questions', () => {
  const { scale, questions } = importedOf(fixture('ordering.moodle.xml'));

  test('each becomes an ordering question, its items put in the order their fractions number', () => {
    expect(questions.map((question) => [question.name, question.input?.type ?? null])).toEqual([
      ['Planets', 'ordering'],
      ['Life cycle', 'ordering'],
      ['Relative', 'ordering'],
      ['Too short', null],
    ]);
    // Grades 4, 2 and 3: 4 / 4 items = 1 point each, 2 for a whole order, 3 / 3 items = 1 each.
    expect(scale).toBe(1);
    expect(questions[0]!.input).toMatchObject({
      text: 'Put the planets in order from the Sun.',
      explanation: 'Mercury is nearest.',
      items: ['Mercury', 'Venus', 'Earth', 'Mars'].map((label) => ({ label })),
      points_per_item: 1,
    });
    expect(questions[0]!.lost).toEqual(['its Moodle category ($course$/Ordering)']);
    // All or nothing: the grade for the whole order.
    expect(questions[1]!.input).toMatchObject({
      items: ['Egg', 'Larva', 'Pupa'].map((label) => ({ label })),
      points: 2,
    });
    expect(questions[1]!.input).not.toHaveProperty('points_per_item');
    // Relative gradings and a subset of items shown are named as lost.
    expect(questions[2]!.input).toMatchObject({
      items: ['Monday', 'Tuesday', 'Wednesday'].map((label) => ({ label })),
      points_per_item: 1,
    });
    expect(questions[2]!.lost).toEqual([
      'showing only some of the items',
      'grading by items next to each other (points per item in place instead)',
      'its Moodle category ($course$/Ordering)',
    ]);
    // Fewer items than an ordering question takes: named, not imported.
    expect(questions[3]!.problems.join('\n')).toContain('items');
  });
});

describe('entities', () => {
  test('every named HTML entity is decoded, names with digits included', () => {
    expect(decodeEntities('Qu&eacute;bec &frac12; &sup2; &#233; &#xE9; &amp;lt; &nbsp;x')).toBe(
      'Québec ½ ² é é &lt;  x',
    );
  });
});
