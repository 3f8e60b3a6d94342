import { hashOfImagePath, type ImageRecord } from '../images/image-ref';
import {
  BLANK_MARKER,
  definitionOf,
  isQuestionType,
  type ImportedMatrix,
  type ImportShape,
  type TypeExport,
} from '../question-types';
import type { QuestionRecord } from '../quiz-records';
import { escapeXml } from './xml-text';
import { writeZip } from '../import/zip';

/**
 * One quiz as a QTI 3.0 content package: `imsmanifest.xml`, a test that lists the items in the
 * quiz's order, and one item per question. Scores are written as the quiz marks them (a mapping
 * per option, or the points for a right response), so that the package read back (qti.ts) gives
 * the same questions; what QTI cannot hold is said per question in `notes`.
 */

const ASI_NAMESPACE = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';
const ASI_SCHEMA = 'https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd';
const CP_NAMESPACE = 'http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1';
const CP_SCHEMA = 'https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

export interface QtiExportNote {
  /** The question's place in the quiz, from 1. */
  n: number;
  question_id: string;
  type: string;
  /** What the package does not hold of it; a question left out says so here. */
  lost: string[];
}

export interface QtiExport {
  bytes: Buffer;
  /** The questions something is said of, in the quiz's order. */
  notes: QtiExportNote[];
  /** How many questions the package holds. */
  items: number;
}

export interface ExportableQuiz {
  quiz_id: string;
  title: string;
  questions: readonly QuestionRecord[];
}

/**
 * Plain text as HTML paragraphs: a blank line starts a paragraph, a new line breaks one; with
 * `blank`, each `[[n]]` marker is the interaction it gives.
 */
function paragraphs(text: string, blank?: (n: number) => string): string {
  const line = (part: string) =>
    blank
      ? part
          .split(new RegExp(BLANK_MARKER.source))
          .map((piece, index) => (index % 2 === 1 ? blank(Number(piece)) : escapeXml(piece)))
          .join('')
      : escapeXml(part);
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${paragraph.split('\n').map(line).join('<br/>')}</p>`)
    .join('\n    ');
}

const number = (value: number) => String(value);

interface ItemParts {
  declaration: string;
  interaction: string;
  processing: string;
  maxScore: number;
  /** The text with its interactions in it (blanks), in place of the text, then the interaction. */
  body?: string;
}

/** A picture written into the package: its path there, and the `<img>` that shows it from an item. */
interface Picture {
  path: string;
  img: string;
}

/** What a writer is given besides the question told in shapes. */
interface Context {
  question: QuestionRecord;
  /** The `<img>` of each option, by the option's place ('' when it has none). */
  optionImages: readonly string[];
}

const correctResponse = (values: readonly string[]) =>
  values.length === 0
    ? ''
    : `\n    <qti-correct-response>${values.map((value) => `<qti-value>${escapeXml(value)}</qti-value>`).join('')}</qti-correct-response>`;

const mapping = (entries: ReadonlyArray<readonly [string, number]>, extra = '', caseless = false) =>
  `\n    <qti-mapping default-value="0"${extra}>${entries
    .map(
      ([key, value]) =>
        `\n      <qti-map-entry map-key="${escapeXml(key)}" mapped-value="${number(value)}"${caseless ? ' case-sensitive="false"' : ''}/>`,
    )
    .join('')}\n    </qti-mapping>`;

const MAP_RESPONSE =
  '<qti-set-outcome-value identifier="SCORE"><qti-map-response identifier="RESPONSE"/></qti-set-outcome-value>';

/** SCORE set to `points` when `condition` holds (the form qti.ts reads back). */
const scoreWhen = (condition: string, points: number) =>
  `<qti-response-condition><qti-response-if>${condition}<qti-set-outcome-value identifier="SCORE"><qti-base-value base-type="float">${number(points)}</qti-base-value></qti-set-outcome-value></qti-response-if></qti-response-condition>`;

const choices = (labels: readonly string[], prefix: string, images: readonly string[] = []) =>
  labels
    .map(
      (label, index) =>
        `\n      <qti-simple-choice identifier="${prefix}${index + 1}">${escapeXml(label)}${images[index] ? ` ${images[index]}` : ''}</qti-simple-choice>`,
    )
    .join('');

type Lose = (what: string) => void;

/** The scores of a question's answers, as its type tells them (grade × share). */
const scoresOf = (told: TypeExport) => told.answers.map((answer) => (told.grade * answer.fraction) / 100);

/** A choice among options, scored by a mapping of each option to its score. */
function choiceParts(told: TypeExport, many: boolean, context: Context): ItemParts {
  const scores = scoresOf(told);
  const best = Math.max(...scores);
  const right = scores.flatMap((score, index) =>
    (many ? score > 0 : score === best && best > 0) ? [`C${index + 1}`] : [],
  );
  return {
    declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="${many ? 'multiple' : 'single'}" base-type="identifier">${correctResponse(right)}${mapping(
      scores.map((score, index) => [`C${index + 1}`, score] as const),
      many ? ' lower-bound="0"' : '',
    )}\n  </qti-response-declaration>`,
    interaction: `<qti-choice-interaction response-identifier="RESPONSE" max-choices="${many ? 0 : 1}" shuffle="false">${choices(
      told.answers.map((answer) => answer.text),
      'C',
      context.optionImages,
    )}\n    </qti-choice-interaction>`,
    processing: MAP_RESPONSE,
    maxScore: many ? scores.reduce((sum, score) => sum + Math.max(0, score), 0) : Math.max(0, best),
  };
}

/** One set of a match interaction: its choices, each matched at most `max` times. */
const matchSet = (labels: readonly string[], prefix: string, max: number) =>
  `\n      <qti-simple-match-set>${labels
    .map(
      (label, index) =>
        `\n        <qti-simple-associable-choice identifier="${prefix}${index + 1}" match-max="${max}">${escapeXml(label)}</qti-simple-associable-choice>`,
    )
    .join('')}\n      </qti-simple-match-set>`;

/**
 * A grid as a match interaction shown as a table (QTI's shared `qti-match-tabular` class): the
 * rows are the first set, the columns the second, a row's answer its pairs. A row earns its
 * points only when its pairs are exactly its right columns, as the grid marks it, so the
 * processing adds them row by row rather than per pair; qti.ts reads the same form back.
 */
function matrixParts(matrix: ImportedMatrix): ItemParts {
  const { rows, columns, right } = matrix;
  const pair = (row: number, column: number) => `R${row + 1} C${column + 1}`;
  const rightPairs = right ? right.flatMap((chosen, row) => chosen.map((column) => pair(row, column))) : [];
  const member = (row: number, column: number) =>
    `<qti-member><qti-base-value base-type="directedPair">${pair(row, column)}</qti-base-value><qti-variable identifier="RESPONSE"/></qti-member>`;
  const rowRight = (row: number) =>
    `<qti-and>${columns
      .map((_, column) =>
        right![row]!.includes(column) ? member(row, column) : `<qti-not>${member(row, column)}</qti-not>`,
      )
      .join('')}</qti-and>`;
  const addPoints = `<qti-set-outcome-value identifier="SCORE"><qti-sum><qti-variable identifier="SCORE"/><qti-base-value base-type="float">${number(matrix.pointsPerRow)}</qti-base-value></qti-sum></qti-set-outcome-value>`;
  const perRow = matrix.checkboxes ? columns.length : 1;
  return {
    declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="directedPair">${correctResponse(rightPairs)}\n  </qti-response-declaration>`,
    interaction: `<qti-match-interaction class="qti-match-tabular" response-identifier="RESPONSE" shuffle="false" max-associations="${rows.length * perRow}">${matchSet(
      rows,
      'R',
      perRow,
    )}${matchSet(columns, 'C', rows.length)}\n    </qti-match-interaction>`,
    processing: right
      ? rows
          .map(
            (_, row) =>
              `<qti-response-condition><qti-response-if>${rowRight(row)}${addPoints}</qti-response-if></qti-response-condition>`,
          )
          .join('\n    ')
      : '',
    maxScore: right ? Math.max(0, matrix.pointsPerRow) * rows.length : 0,
  };
}

/**
 * How each shape of question is written as an item, in the form qti.ts reads back; a shape
 * with none is not written yet (its questions are listed as left out).
 */
const WRITERS: Partial<Record<ImportShape, (told: TypeExport, lose: Lose, context: Context) => ItemParts>> = {
  truth: (told) => {
    const right = told.answers[0]?.text === 'false' ? 'NO' : 'YES';
    return {
      declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">${correctResponse([right])}${mapping([[right, told.grade]])}\n  </qti-response-declaration>`,
      interaction: `<qti-choice-interaction response-identifier="RESPONSE" max-choices="1" shuffle="false">
      <qti-simple-choice identifier="YES">Yes</qti-simple-choice>
      <qti-simple-choice identifier="NO">No</qti-simple-choice>
    </qti-choice-interaction>`,
      processing: MAP_RESPONSE,
      maxScore: Math.max(0, told.grade),
    };
  },
  one_choice: (told, _lose, context) => choiceParts(told, false, context),
  many_choices: (told, _lose, context) => choiceParts(told, true, context),
  text_answers: (told, lose) => {
    const accepted = told.answers.filter((answer) => answer.fraction === 100).map((answer) => answer.text);
    if (accepted.length > 0) {
      lose(
        'matching that ignores inner spaces and Unicode forms (QTI compares the text as typed, case aside)',
      );
    }
    return {
      declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string">${correctResponse(accepted.slice(0, 1))}${
        accepted.length > 0
          ? mapping(
              accepted.map((answer) => [answer, told.grade] as const),
              '',
              true,
            )
          : ''
      }\n  </qti-response-declaration>`,
      interaction: '<p><qti-text-entry-interaction response-identifier="RESPONSE"/></p>',
      processing: accepted.length > 0 ? MAP_RESPONSE : '',
      maxScore: accepted.length > 0 ? Math.max(0, told.grade) : 0,
    };
  },
  numeric: (told, lose) => {
    const right = told.answers[0];
    const value = Number(right?.text ?? 0);
    const within = right?.tolerance ?? 0;
    const tolerance =
      within > 0
        ? `tolerance-mode="absolute" tolerance="${number(within)} ${number(within)}" include-lower-bound="true" include-upper-bound="true"`
        : 'tolerance-mode="exact"';
    lose('answers written with a decimal comma ("3,5"), which QTI does not read as numbers');
    return {
      declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="float">${correctResponse([number(value)])}\n  </qti-response-declaration>`,
      interaction: '<p><qti-text-entry-interaction response-identifier="RESPONSE"/></p>',
      processing: scoreWhen(
        `<qti-equal ${tolerance}><qti-variable identifier="RESPONSE"/><qti-correct identifier="RESPONSE"/></qti-equal>`,
        told.grade,
      ),
      maxScore: Math.max(0, told.grade),
    };
  },
  sequence: (told, lose) => {
    if (told.answers.some((answer) => answer.fraction < 100)) {
      lose(
        `points_per_item (QTI's package gives ${number(told.grade)} points for the whole order right, none for part)`,
      );
    }
    return {
      declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="ordered" base-type="identifier">${correctResponse(
        told.answers.map((_, index) => `I${index + 1}`),
      )}\n  </qti-response-declaration>`,
      interaction: `<qti-order-interaction response-identifier="RESPONSE" shuffle="true">${choices(
        told.answers.map((answer) => answer.text),
        'I',
      )}\n    </qti-order-interaction>`,
      processing: scoreWhen(
        '<qti-match><qti-variable identifier="RESPONSE"/><qti-correct identifier="RESPONSE"/></qti-match>',
        told.grade,
      ),
      maxScore: Math.max(0, told.grade),
    };
  },
  pairs: (told) => {
    const list = told.pairs?.list ?? [];
    // Matches once each, the pairs' first, then the extra ones; a match may serve several prompts.
    const matches = [...new Set([...list.map((pair) => pair.match), ...(told.pairs?.extra ?? [])])];
    const perPair = list.length === 0 ? 0 : told.grade / list.length;
    const pairIds = list.map((pair, index) => `P${index + 1} M${matches.indexOf(pair.match) + 1}`);
    return {
      declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="directedPair">${correctResponse(
        pairIds,
      )}${mapping(pairIds.map((id) => [id, perPair] as const))}\n  </qti-response-declaration>`,
      interaction: `<qti-match-interaction response-identifier="RESPONSE" shuffle="false" max-associations="${list.length}">${matchSet(
        list.map((pair) => pair.prompt),
        'P',
        1,
      )}${matchSet(matches, 'M', list.length)}\n    </qti-match-interaction>`,
      processing: MAP_RESPONSE,
      maxScore: Math.max(0, told.grade),
    };
  },
  blanks: (told, lose, context) => {
    const blanks = told.blanks ?? [];
    if (blanks.some((blank) => !blank.choice)) {
      lose(
        'matching of typed blanks that ignores inner spaces and Unicode forms (QTI compares the text as typed, case aside)',
      );
    }
    const id = (n: number) => `RESPONSE_${n}`;
    const declarations = blanks.map((blank, index) => {
      const n = index + 1;
      if (blank.choice) {
        const right = blank.answers.findIndex((answer) => answer.fraction === 100);
        const key = `B${n}_${right + 1}`;
        return `<qti-response-declaration identifier="${id(n)}" cardinality="single" base-type="identifier">${correctResponse([key])}${mapping([[key, blank.grade]])}\n  </qti-response-declaration>`;
      }
      const accepted = blank.answers.map((answer) => answer.text);
      return `<qti-response-declaration identifier="${id(n)}" cardinality="single" base-type="string">${correctResponse(accepted.slice(0, 1))}${mapping(
        accepted.map((answer) => [answer, blank.grade] as const),
        '',
        true,
      )}\n  </qti-response-declaration>`;
    });
    const interaction = (n: number) => {
      const blank = blanks[n - 1];
      if (!blank) return escapeXml(`[[${n}]]`);
      if (!blank.choice) return `<qti-text-entry-interaction response-identifier="${id(n)}"/>`;
      return `<qti-inline-choice-interaction response-identifier="${id(n)}" shuffle="false">${blank.answers
        .map(
          (answer, index) =>
            `<qti-inline-choice identifier="B${n}_${index + 1}">${escapeXml(answer.text)}</qti-inline-choice>`,
        )
        .join('')}</qti-inline-choice-interaction>`;
    };
    return {
      declaration: declarations.join('\n  '),
      interaction: '',
      body: paragraphs(context.question.text, interaction),
      processing:
        blanks.length === 0
          ? ''
          : `<qti-set-outcome-value identifier="SCORE"><qti-sum>${blanks
              .map((_, index) => `<qti-map-response identifier="${id(index + 1)}"/>`)
              .join('')}</qti-sum></qti-set-outcome-value>`,
      maxScore: Math.max(0, told.grade),
    };
  },
  open: (told, lose) => {
    const essay = told.essay;
    if (essay?.minWords || essay?.maxWords) lose('min_words and max_words (QTI has no word limits)');
    const rubric = essay?.rubric ?? [];
    const block =
      rubric.length === 0
        ? ''
        : `\n    <qti-rubric-block use="scoring" view="scorer">\n      <qti-content-body>\n        <table>\n          <tbody>${rubric
            .map(
              (criterion) =>
                `\n            <tr><th>${escapeXml(criterion.criterion)}</th>${criterion.levels
                  .map(
                    (level) =>
                      `<td>${escapeXml(level.label)} (${number(level.points)} point${level.points === 1 ? '' : 's'})</td>`,
                  )
                  .join('')}</tr>`,
            )
            .join(
              '',
            )}\n          </tbody>\n        </table>\n      </qti-content-body>\n    </qti-rubric-block>`;
    return {
      declaration:
        '<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>',
      interaction: `<qti-extended-text-interaction response-identifier="RESPONSE"/>${block}`,
      processing: '',
      maxScore: Math.max(0, told.grade),
    };
  },
  matrix: (told) => matrixParts(told.matrix!),
  rating: (told) => ({
    declaration: '<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="integer"/>',
    interaction: `<qti-slider-interaction response-identifier="RESPONSE" lower-bound="${told.range?.min ?? 1}" upper-bound="${told.range?.max ?? 5}" step="1"/>`,
    processing: '',
    maxScore: 0,
  }),
};

/** The parts of one question's item, or null for a type not written to QTI here. */
function itemParts(question: QuestionRecord, lose: Lose, optionImages: readonly string[]): ItemParts | null {
  if (!isQuestionType(question.type)) return null;
  const exporting = definitionOf(question.type).exporting;
  if (!exporting) return null;
  const told = exporting(question);
  const writer = WRITERS[told.shape];
  if (!writer) return null;
  for (const what of told.unsaid) lose(what);
  return writer(told, lose, { question, optionImages });
}

const EXPLANATION = 'EXPLANATION';

function itemXml(question: QuestionRecord, identifier: string, parts: ItemParts, image: string): string {
  const explanation = question.explanation;
  const processing = [
    parts.processing,
    explanation
      ? `<qti-set-outcome-value identifier="FEEDBACK"><qti-base-value base-type="identifier">${EXPLANATION}</qti-base-value></qti-set-outcome-value>`
      : '',
  ].filter((part) => part !== '');
  return `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="${ASI_NAMESPACE}" xmlns:xsi="${XSI}" xsi:schemaLocation="${ASI_NAMESPACE} ${ASI_SCHEMA}" identifier="${identifier}" title="${escapeXml(question.text.split('\n')[0]!.slice(0, 80))}" adaptive="false" time-dependent="false">
  ${parts.declaration}
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"${parts.maxScore > 0 ? ` normal-maximum="${number(parts.maxScore)}"` : ''}>
    <qti-default-value><qti-value>0</qti-value></qti-default-value>
  </qti-outcome-declaration>${
    explanation
      ? '\n  <qti-outcome-declaration identifier="FEEDBACK" cardinality="single" base-type="identifier"/>'
      : ''
  }
  <qti-item-body>
    ${[parts.body ?? paragraphs(question.text), image ? `<p>${image}</p>` : '', parts.interaction]
      .filter((part) => part !== '')
      .join('\n    ')}
  </qti-item-body>${
    processing.length > 0
      ? `\n  <qti-response-processing>\n    ${processing.join('\n    ')}\n  </qti-response-processing>`
      : ''
  }${
    explanation
      ? `\n  <qti-modal-feedback outcome-identifier="FEEDBACK" identifier="${EXPLANATION}" show-hide="show">\n    <qti-content-body>\n      ${paragraphs(explanation)}\n    </qti-content-body>\n  </qti-modal-feedback>`
      : ''
  }
</qti-assessment-item>
`;
}

function testXml(quiz: ExportableQuiz, items: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-test xmlns="${ASI_NAMESPACE}" xmlns:xsi="${XSI}" xsi:schemaLocation="${ASI_NAMESPACE} ${ASI_SCHEMA}" identifier="test" title="${escapeXml(quiz.title)}">
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-test-part identifier="part-1" navigation-mode="nonlinear" submission-mode="simultaneous">
    <qti-assessment-section identifier="section-1" title="${escapeXml(quiz.title)}" visible="true">${items
      .map((id) => `\n      <qti-assessment-item-ref identifier="${id}" href="items/${id}.xml"/>`)
      .join('')}
    </qti-assessment-section>
  </qti-test-part>
  <qti-outcome-processing>
    <qti-set-outcome-value identifier="SCORE"><qti-sum><qti-test-variables variable-identifier="SCORE"/></qti-sum></qti-set-outcome-value>
  </qti-outcome-processing>
</qti-assessment-test>
`;
}

function manifestXml(
  quiz: ExportableQuiz,
  items: ReadonlyArray<{ id: string; pictures: readonly string[] }>,
): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="${CP_NAMESPACE}" xmlns:xsi="${XSI}" xsi:schemaLocation="${CP_NAMESPACE} ${CP_SCHEMA}" identifier="quiz-${escapeXml(quiz.quiz_id.replace(/[^A-Za-z0-9_.-]/g, '-'))}">
  <metadata>
    <schema>QTI Package</schema>
    <schemaversion>3.0.0</schemaversion>
  </metadata>
  <organizations/>
  <resources>
    <resource identifier="test" type="imsqti_test_xmlv3p0" href="assessment-test.xml">
      <file href="assessment-test.xml"/>${items.map(({ id }) => `\n      <dependency identifierref="${id}"/>`).join('')}
    </resource>${items
      .map(
        ({ id, pictures }) =>
          `\n    <resource identifier="${id}" type="imsqti_item_xmlv3p0" href="items/${id}.xml">\n      <file href="items/${id}.xml"/>${pictures
            .map((path) => `\n      <file href="${escapeXml(path)}"/>`)
            .join('')}\n    </resource>`,
      )
      .join('')}
  </resources>
</manifest>
`;
}

/**
 * The quiz as a QTI 3.0 package, and what each question loses in it. `pictures` holds the bytes
 * of the pictures the questions show, by the address their records give (export-quiz.ts reads
 * them as it does for Moodle XML), written into the package beside the items; a picture not
 * among them is listed as lost.
 */
export async function exportQti(
  quiz: ExportableQuiz,
  pictures?: ReadonlyMap<string, Buffer>,
): Promise<QtiExport> {
  const notes: QtiExportNote[] = [];
  const files: Array<{ path: string; bytes: string | Buffer }> = [];
  const written = new Map<string, Picture | null>();
  const items: Array<{ id: string; pictures: string[] }> = [];
  /** The picture as an `<img>` of an item, its file added to the package once. */
  const picture = (image: ImageRecord | undefined, lose: Lose, what: string, used: string[]) => {
    if (!image) return '';
    let name: string | null = null;
    try {
      const path = new URL(image.url).pathname;
      // Our own address, /images/<sha256>.<ext>: the file keeps its name in the package.
      name = hashOfImagePath(path) === null ? null : path.slice(path.lastIndexOf('/') + 1);
    } catch {
      name = null;
    }
    if (name !== null && !written.has(name)) {
      const stored = pictures?.get(image.url);
      if (stored) {
        const path = `images/${name}`;
        files.push({ path, bytes: stored });
        written.set(name, {
          path,
          img: `<img src="../${path}" alt="${escapeXml(image.alt)}" width="${image.width}" height="${image.height}"/>`,
        });
      } else written.set(name, null);
    }
    const found = name === null ? null : written.get(name);
    if (!found) {
      lose(`${what} (its file could not be read)`);
      return '';
    }
    if (!used.includes(found.path)) used.push(found.path);
    return found.img;
  };
  for (const [index, question] of quiz.questions.entries()) {
    const lost: string[] = [];
    const lose = (what: string) => lost.push(what);
    const used: string[] = [];
    const image = picture(question.image, lose, 'its picture', used);
    const options = (question as { options?: Array<{ image?: ImageRecord }> }).options ?? [];
    const optionImages: string[] = [];
    for (const [place, option] of options.entries()) {
      optionImages.push(picture(option.image, lose, `the picture of option ${place + 1}`, used));
    }
    const parts = itemParts(question, lose, optionImages);
    if (!parts) {
      lost.length = 0;
      lost.push(`the whole question: ${question.type} questions are not written to QTI yet`);
    } else {
      const identifier = `item-${index + 1}`;
      items.push({ id: identifier, pictures: used });
      files.push({ path: `items/${identifier}.xml`, bytes: itemXml(question, identifier, parts, image) });
    }
    if (lost.length > 0)
      notes.push({ n: index + 1, question_id: question.question_id, type: question.type, lost });
  }
  const ids = items.map((item) => item.id);
  // Items first, then the pictures, each in the order first shown: the same quiz gives the same bytes.
  const shown = new Set(items.flatMap((item) => item.pictures));
  const ordered = [
    ...files.filter((file) => file.path.startsWith('items/')),
    ...files.filter((file) => !file.path.startsWith('items/') && shown.has(file.path)),
  ];
  const bytes = await writeZip([
    { path: 'imsmanifest.xml', bytes: manifestXml(quiz, items) },
    { path: 'assessment-test.xml', bytes: testXml(quiz, ids) },
    ...ordered,
  ]);
  return { bytes, notes, items: items.length };
}
