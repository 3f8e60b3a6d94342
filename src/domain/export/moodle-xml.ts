import type { ImportShape, TypeExport } from '../question-types';
import { imagesLost, pointsOf, toldOf, type ExportedQuestion, type QuizExporter } from './exported';

/**
 * One quiz as Moodle XML, the format import reads back (domain/import/moodle-xml.ts): each
 * question as its type tells it in the importer's shapes (`exporting`), written as the Moodle
 * type of that shape; texts as plain_text (ours are plain, TeX and code kept as written), the
 * explanation as general feedback. A question's grade is the most it earns and each answer's
 * fraction its share in percent, which the import's scoring rule turns back into the same points.
 */

const escapeXml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // Characters XML 1.0 cannot hold at all.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');

const text = (value: string) => `<text>${escapeXml(value)}</text>`;
const plain = (tag: string, value: string) => `<${tag} format="plain_text">${text(value)}</${tag}>`;

/** A share in percent, to seven decimals (enough for the import to find the same whole score). */
const percent = (part: number, whole: number) => (whole === 0 ? 0 : +((part / whole) * 100).toFixed(7));

const answer = (fraction: number, value: string, extra = '') =>
  `<answer fraction="${fraction}" format="plain_text">${text(value)}${extra}</answer>`;

type Body = { moodleType: string; grade: number; parts: string[]; lost: string[] } | { leftOut: string };

/** Options scored against the grade the question is worth in Moodle. */
function options(told: TypeExport, single: boolean): Body {
  const points = pointsOf(told);
  const positive = points.filter((value) => value > 0);
  const most = single ? Math.max(0, ...positive) : positive.reduce((sum, value) => sum + value, 0);
  const grade = most > 0 ? most : 1;
  return {
    moodleType: 'multichoice',
    grade,
    parts: [
      `<single>${single}</single>`,
      '<shuffleanswers>true</shuffleanswers>',
      ...told.answers.map((option, index) => answer(percent(points[index]!, grade), option.text)),
    ],
    lost: [],
  };
}

/** What each shape becomes; a shape this export does not write says why. */
const WRITERS: Readonly<Record<ImportShape, (told: TypeExport) => Body>> = {
  truth: (told) => {
    const right = told.answers[0]?.text === 'false' ? 'false' : 'true';
    return {
      moodleType: 'truefalse',
      grade: told.grade,
      parts: [answer(right === 'true' ? 100 : 0, 'true'), answer(right === 'false' ? 100 : 0, 'false')],
      lost: told.grade < 0 ? ['negative points (a Moodle grade is 0 or more)'] : [],
    };
  },
  one_choice: (told) => options(told, true),
  many_choices: (told) => options(told, false),
  text_answers: (told) => ({
    moodleType: 'shortanswer',
    grade: told.grade,
    parts: [
      '<usecase>0</usecase>',
      ...told.answers.map((accepted) => answer(accepted.fraction, accepted.text)),
    ],
    lost: [],
  }),
  numeric: (told) => ({
    moodleType: 'numerical',
    grade: told.grade,
    parts: told.answers.map((right) =>
      answer(right.fraction, right.text, `<tolerance>${right.tolerance ?? 0}</tolerance>`),
    ),
    lost: [],
  }),
  sequence: (told) => {
    // Every item's share below the whole grade: points per item in its place.
    const perItem = told.answers.some((item) => item.fraction < 100);
    return {
      moodleType: 'ordering',
      grade: told.grade,
      parts: [
        '<layouttype>VERTICAL</layouttype>',
        '<selecttype>ALL</selecttype>',
        '<selectcount>0</selectcount>',
        `<gradingtype>${perItem ? 'ABSOLUTE_POSITION' : 'ALL_OR_NOTHING'}</gradingtype>`,
        '<showgrading>SHOW</showgrading>',
        '<numberingstyle>none</numberingstyle>',
        ...told.answers.map((item, index) => answer(index + 1, item.text)),
      ],
      lost: [],
    };
  },
  pairs: () => ({ leftOut: 'pairs to match are not written to Moodle XML yet' }),
  blanks: () => ({ leftOut: 'blanks to fill in are not written to Moodle XML yet' }),
  open: () => ({ leftOut: 'long written answers are not written to Moodle XML yet' }),
  rating: () => ({ leftOut: 'Moodle has no rating scale question' }),
};

export const moodleXmlExporter: QuizExporter = {
  contentType: 'application/xml; charset=utf-8',
  extension: 'moodle.xml',
  build(quiz) {
    const notes: ExportedQuestion[] = [];
    const questions = quiz.questions.map((record, index) => {
      const n = index + 1;
      const told = toldOf(record);
      const body = told ? WRITERS[told.shape](told) : { leftOut: 'its type is not exported yet' };
      const note = { n, question_id: record.question_id, type: record.type };
      if ('leftOut' in body) {
        notes.push({ ...note, left_out: true, lost: [body.leftOut] });
        return `  <!-- question ${n} left out: ${escapeXml(body.leftOut)} -->`;
      }
      const lost = [...told!.unsaid, ...body.lost, ...imagesLost(record)];
      if (lost.length > 0) notes.push({ ...note, lost });
      return [
        `  <question type="${body.moodleType}">`,
        `    <name>${text(`Q${n}`)}</name>`,
        `    ${plain('questiontext', record.text)}`,
        `    ${plain('generalfeedback', record.explanation ?? '')}`,
        `    <defaultgrade>${Math.max(0, body.grade)}</defaultgrade>`,
        '    <penalty>0</penalty>',
        '    <hidden>0</hidden>',
        ...body.parts.map((part) => `    ${part}`),
        '  </question>',
      ].join('\n');
    });
    const category = [
      '  <question type="category">',
      `    <category>${text(`$course$/top/${quiz.title.replace(/\//g, '//')}`)}</category>`,
      '  </question>',
    ].join('\n');
    return {
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n${category}\n${questions.join('\n')}\n</quiz>\n`,
      notes,
    };
  },
};
