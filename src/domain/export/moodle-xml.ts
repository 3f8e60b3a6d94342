import {
  BLANK_MARKER,
  decimalsOf,
  type ImportedBlank,
  type ImportShape,
  type TypeExport,
} from '../question-types';
import type { ImageRecord } from '../images/image-ref';
import { escapeXml } from './xml-text';
import { pointsOf, toldOf, type ExportedQuestion, type ExportSource, type QuizExporter } from './exported';

/**
 * One quiz as Moodle XML, the format import reads back (domain/import/moodle-xml.ts): each
 * question as its type tells it in the importer's shapes (`exporting`), written as the Moodle
 * type of that shape; texts as plain_text (ours are plain, TeX and code kept as written), the
 * explanation as general feedback. A question's grade is the most it earns and each answer's
 * fraction its share in percent, which the import's scoring rule turns back into the same points.
 */

const text = (value: string) => `<text>${escapeXml(value)}</text>`;
const plain = (tag: string, value: string) => `<${tag} format="plain_text">${text(value)}</${tag}>`;

/** A share in percent, to seven decimals (enough for the import to find the same whole score). */
const percent = (part: number, whole: number) => (whole === 0 ? 0 : +((part / whole) * 100).toFixed(7));

const answer = (fraction: number, value: string, extra = '') =>
  `<answer fraction="${fraction}" format="plain_text">${text(value)}${extra}</answer>`;

/**
 * A text with its picture, as Moodle writes one: HTML whose `<img>` names the file the element
 * carries (`@@PLUGINFILE@@/name`, the bytes in base64 beside the text). Line breaks become
 * `<br>`, which the import reads back as the same lines.
 */
function withPicture(value: string, picture: Picture): { format: string; inner: string } {
  const escapeHtml = (part: string) => escapeXml(part).replace(/\r?\n/g, '<br>');
  const img = `<img src="@@PLUGINFILE@@/${encodeURIComponent(picture.name)}" alt="${escapeXml(picture.alt)}" width="${picture.width}" height="${picture.height}">`;
  return {
    format: 'html',
    inner: `${text(`<p>${escapeHtml(value)}</p><p>${img}</p>`)}<file name="${escapeXml(picture.name)}" path="/" encoding="base64">${picture.base64}</file>`,
  };
}

/** A picture to write: its file's name and bytes, and what its `<img>` says. */
interface Picture {
  name: string;
  alt: string;
  width: number;
  height: number;
  base64: string;
}

/**
 * The picture of a question or an option as the file holds it; undefined when it has none;
 * null when its bytes are not at hand (the export names it as lost).
 */
function pictureOf(
  image: ImageRecord | undefined,
  files: ExportSource['pictures'],
): Picture | null | undefined {
  if (!image) return undefined;
  // Without the files (the notes of what a format loses), every picture counts as held.
  if (!files) return { name: '', alt: image.alt, width: image.width, height: image.height, base64: '' };
  const bytes = files.get(image.url);
  if (!bytes) return null;
  return {
    name: image.url.slice(image.url.lastIndexOf('/') + 1),
    alt: image.alt,
    width: image.width,
    height: image.height,
    base64: bytes.toString('base64'),
  };
}

/** A text element, with its picture when it has one. */
function textElement(tag: string, value: string, picture: Picture | null | undefined): string {
  if (!picture) return plain(tag, value);
  const { format, inner } = withPicture(value, picture);
  return `<${tag} format="${format}">${inner}</${tag}>`;
}

type Body =
  | {
      moodleType: string;
      grade: number;
      parts: string[];
      lost: string[];
      /** The question text as this type writes it (cloze: its answers embedded). */
      text?: (text: string) => string;
    }
  | { leftOut: string };

const subquestion = (prompt: string, match: string) =>
  `<subquestion format="plain_text">${text(prompt)}<answer>${text(match)}</answer></subquestion>`;

/** What an embedded answer's own syntax reads: escaped with a backslash. */
const escapeCloze = (value: string) => value.replace(/[\\}~#]|^[=%]/g, (mark) => `\\${mark}`);

/** A blank as an embedded answer: `{points:SHORTANSWER:=a~=b}` or `{points:MULTICHOICE:=right~wrong}`. */
function clozeOf(blank: ImportedBlank | undefined): string | undefined {
  if (!blank) return undefined;
  const answers = blank.answers
    .map((answer) => `${answer.fraction >= 100 ? '=' : ''}${escapeCloze(answer.text)}`)
    .join('~');
  return `{${Math.max(1, blank.grade)}:${blank.choice ? 'MULTICHOICE' : 'SHORTANSWER'}:${answers}}`;
}

const rubricLine = (criterion: {
  criterion: string;
  levels: ReadonlyArray<{ label: string; points: number }>;
}) =>
  `${criterion.criterion}: ${criterion.levels.map((level) => `${level.label} (${level.points})`).join(', ')}`;

/** Options scored against the grade the question is worth in Moodle, each with its picture. */
function options(told: TypeExport, single: boolean, pictures: OptionPictures): Body {
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
      ...told.answers.map((option, index) => {
        const fraction = percent(points[index]!, grade);
        const picture = pictures(index);
        if (!picture) return answer(fraction, option.text);
        const { format, inner } = withPicture(option.text, picture);
        return `<answer fraction="${fraction}" format="${format}">${inner}</answer>`;
      }),
    ],
    lost: [],
  };
}

/** What each shape becomes; a shape this export does not write says why. */
type OptionPictures = (index: number) => Picture | null | undefined;

const WRITERS: Readonly<Record<ImportShape, (told: TypeExport, pictures: OptionPictures) => Body>> = {
  truth: (told) => {
    const right = told.answers[0]?.text === 'false' ? 'false' : 'true';
    return {
      moodleType: 'truefalse',
      grade: told.grade,
      parts: [answer(right === 'true' ? 100 : 0, 'true'), answer(right === 'false' ? 100 : 0, 'false')],
      lost: told.grade < 0 ? ['negative points (a Moodle grade is 0 or more)'] : [],
    };
  },
  one_choice: (told, pictures) => options(told, true, pictures),
  many_choices: (told, pictures) => options(told, false, pictures),
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
  pairs: (told) => ({
    moodleType: 'matching',
    grade: told.grade,
    parts: [
      '<shuffleanswers>true</shuffleanswers>',
      ...(told.pairs?.list ?? []).map((pair) => subquestion(pair.prompt, pair.match)),
      // A match of no prompt is a sub-question with an empty text.
      ...(told.pairs?.extra ?? []).map((match) => subquestion('', match)),
    ],
    lost: [],
  }),
  blanks: (told) => {
    const blanks = told.blanks ?? [];
    const lost = blanks.some((blank) => blank.grade <= 0)
      ? ['a blank worth 0 points (Moodle counts an embedded answer as worth 1 at least)']
      : [];
    return {
      moodleType: 'multianswer',
      grade: blanks.reduce((sum, blank) => sum + Math.max(1, blank.grade), 0),
      parts: [],
      lost,
      text: (text) =>
        text.replace(BLANK_MARKER, (marker, n: string) => clozeOf(blanks[Number(n) - 1]) ?? marker),
    };
  },
  open: (told) => {
    const rubric = told.essay?.rubric ?? [];
    const words = (tag: string, value: number | null | undefined) => `<${tag}>${value ?? ''}</${tag}>`;
    return {
      moodleType: 'essay',
      grade: told.grade,
      parts: [
        '<responseformat>editor</responseformat>',
        '<responserequired>1</responserequired>',
        '<responsefieldlines>15</responsefieldlines>',
        words('minwordlimit', told.essay?.minWords),
        words('maxwordlimit', told.essay?.maxWords),
        '<attachments>0</attachments>',
        '<attachmentsrequired>0</attachmentsrequired>',
        // Moodle has no rubric: it is written out for the graders to read.
        plain('graderinfo', rubric.map(rubricLine).join('\n')),
        plain('responsetemplate', ''),
      ],
      lost: rubric.length > 0 ? ['its rubric (Moodle XML has none: its maximum is kept as the grade)'] : [],
    };
  },
  rating: () => ({ leftOut: 'Moodle has no rating scale question' }),
  matrix: () => ({ leftOut: 'Moodle has no grid question' }),
  // Moodle's calculatedsimple: the formula in its own syntax, each variable a private uniform dataset.
  formula: (told) => {
    const formula = told.formula;
    if (!formula) return { leftOut: 'its formula is missing' };
    const relative = formula.toleranceType === 'relative';
    return {
      moodleType: 'calculatedsimple',
      grade: told.grade,
      parts: [
        '<synchronize>0</synchronize>',
        '<single>0</single>',
        '<answernumbering>abc</answernumbering>',
        '<shuffleanswers>0</shuffleanswers>',
        answer(
          100,
          formula.moodle,
          `<tolerance>${formula.tolerance}</tolerance><tolerancetype>${relative ? 1 : 2}</tolerancetype><correctanswerformat>1</correctanswerformat><correctanswerlength>6</correctanswerlength>`,
        ),
        '<dataset_definitions>',
        ...formula.variables.map((variable) =>
          [
            '<dataset_definition>',
            `<status>${text('private')}</status>`,
            `<name>${text(variable.name)}</name>`,
            '<type>calculatedsimple</type>',
            `<distribution>${text('uniform')}</distribution>`,
            `<minimum>${text(String(variable.min))}</minimum>`,
            `<maximum>${text(String(variable.max))}</maximum>`,
            `<decimals>${text(String(decimalsOf(variable)))}</decimals>`,
            '<itemcount>0</itemcount>',
            '</dataset_definition>',
          ].join(''),
        ),
        '</dataset_definitions>',
      ],
      // Moodle draws every value by its decimals and has no unit per wildcard.
      lost: [
        ...(formula.variables.some((variable) => variable.step !== undefined)
          ? ['steps of variables (drawn by their decimals)']
          : []),
        ...(formula.variables.some((variable) => variable.unit) ? ['units of variables'] : []),
      ],
    };
  },
};

export const moodleXmlExporter: QuizExporter = {
  contentType: 'application/xml; charset=utf-8',
  extension: 'moodle.xml',
  build(quiz) {
    const notes: ExportedQuestion[] = [];
    const questions = quiz.questions.map((record, index) => {
      const n = index + 1;
      const told = toldOf(record);
      const optionImages = (record as { options?: ReadonlyArray<{ image?: ImageRecord }> }).options ?? [];
      const optionPictures = optionImages.map((option) => pictureOf(option.image, quiz.pictures));
      const body = told
        ? WRITERS[told.shape](told, (index) => optionPictures[index])
        : { leftOut: 'its type is not exported yet' };
      const note = { n, question_id: record.question_id, type: record.type };
      if ('leftOut' in body) {
        notes.push({ ...note, left_out: true, lost: [body.leftOut] });
        return `  <!-- question ${n} left out: ${escapeXml(body.leftOut)} -->`;
      }
      const picture = pictureOf(record.image, quiz.pictures);
      const missing = picture === null || optionPictures.includes(null) ? ['images (no longer stored)'] : [];
      const lost = [...told!.unsaid, ...body.lost, ...missing];
      if (lost.length > 0) notes.push({ ...note, lost });
      return [
        `  <question type="${body.moodleType}">`,
        `    <name>${text(`Q${n}`)}</name>`,
        `    ${textElement('questiontext', body.text ? body.text(record.text) : record.text, picture)}`,
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
