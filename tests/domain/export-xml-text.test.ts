// Every XML export (Moodle XML, QTI 3.0) writes any text so that the file parses: each class of
// character goes out and comes back through our own import as it was, except those XML 1.0
// cannot hold at all, which are dropped.
import { assemble, readBank } from '../../src/domain/import/assemble';
import { readPackageBank } from '../../src/domain/import/qti';
import { exportQti } from '../../src/domain/export/qti-export';
import { moodleXmlExporter } from '../../src/domain/export/moodle-xml';
import type { QuestionRecord } from '../../src/domain/quiz-records';

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => String.fromCharCode(from + index)).join('');

/** [what, sent, what comes back]. */
const CLASSES: ReadonlyArray<readonly [string, string, string]> = [
  ['C0 controls XML forbids', `a${range(0x00, 0x08)}${'\u000b\u000c'}${range(0x0e, 0x1f)}b`, 'ab'],
  ['markup characters', `Tom & Jerry <b>"x"</b> 'y' ]]> &amp;`, `Tom & Jerry <b>"x"</b> 'y' ]]> &amp;`],
  ['DEL and C1 controls, which XML 1.0 allows', `a${range(0x7f, 0x9f)}b`, `a${range(0x7f, 0x9f)}b`],
  ['letters beyond ASCII', 'Zoë, 中文, Ελληνικά, \ufffd', 'Zoë, 中文, Ελληνικά, \ufffd'],
  ['U+FFFE and U+FFFF', 'a\ufffeb\uffffc', 'abc'],
  ['characters beyond the BMP (surrogate pairs)', 'math 𝑥 and 😀', 'math 𝑥 and 😀'],
  ['a lone high surrogate', 'a\ud83db', 'ab'],
  ['a lone low surrogate', 'a\ude00b', 'ab'],
  ['a high surrogate at the end', 'end\ud83d', 'end'],
];

const quizOf = (sent: string) => ({
  quiz_id: 'quiz-1',
  title: `Title ${sent}`,
  questions: [
    {
      question_id: 'q1',
      type: 'short_text',
      text: `Question ${sent}`,
      points: 1,
      accepted_answers: [`Answer ${sent}`],
      explanation: `Because ${sent}`,
    } as QuestionRecord,
  ],
});

describe.each(CLASSES)('%s', (_what, sent, back) => {
  const expected = {
    type: 'short_text',
    text: `Question ${back}`,
    accepted_answers: [`Answer ${back}`],
    explanation: `Because ${back}`,
  };

  test('Moodle XML export → our import', () => {
    const { body } = moodleXmlExporter.build(quizOf(sent));
    const { questions } = assemble(readBank(body, 'moodle_xml'));
    expect(questions.map((question) => question.problems)).toEqual([[]]);
    expect(questions[0]!.input).toMatchObject(expected);
  });

  test('QTI 3.0 export → our import', async () => {
    const out = await exportQti(quizOf(sent));
    const { questions } = assemble(await readPackageBank(out.bytes));
    expect(questions.map((question) => question.problems)).toEqual([[]]);
    expect(questions[0]!.input).toMatchObject(expected);
  });
});
