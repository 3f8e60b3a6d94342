import { definitionOf, isQuestionType, type ImportShape, type TypeExport } from '../question-types';
import type { QuestionRecord } from '../quiz-records';
import { writeZip } from './zip';

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

export const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Plain text as HTML paragraphs: a blank line starts a paragraph, a new line breaks one. */
function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${paragraph.split('\n').map(escapeXml).join('<br/>')}</p>`)
    .join('\n    ');
}

const number = (value: number) => String(value);

interface ItemParts {
  declaration: string;
  interaction: string;
  processing: string;
  maxScore: number;
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

const choices = (labels: readonly string[], prefix: string) =>
  labels
    .map(
      (label, index) =>
        `\n      <qti-simple-choice identifier="${prefix}${index + 1}">${escapeXml(label)}</qti-simple-choice>`,
    )
    .join('');

type Lose = (what: string) => void;

/** The scores of a question's answers, as its type tells them (grade × share). */
const scoresOf = (told: TypeExport) => told.answers.map((answer) => (told.grade * answer.fraction) / 100);

/** A choice among options, scored by a mapping of each option to its score. */
function choiceParts(told: TypeExport, many: boolean): ItemParts {
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
    )}\n    </qti-choice-interaction>`,
    processing: MAP_RESPONSE,
    maxScore: many ? scores.reduce((sum, score) => sum + Math.max(0, score), 0) : Math.max(0, best),
  };
}

/**
 * How each shape of question is written as an item, in the form qti.ts reads back; a shape
 * with none is not written yet (its questions are listed as left out).
 */
const WRITERS: Partial<Record<ImportShape, (told: TypeExport, lose: Lose) => ItemParts>> = {
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
  one_choice: (told) => choiceParts(told, false),
  many_choices: (told) => choiceParts(told, true),
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
  rating: (told) => ({
    declaration: '<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="integer"/>',
    interaction: `<qti-slider-interaction response-identifier="RESPONSE" lower-bound="${told.range?.min ?? 1}" upper-bound="${told.range?.max ?? 5}" step="1"/>`,
    processing: '',
    maxScore: 0,
  }),
};

/** The parts of one question's item, or null for a type not written to QTI here. */
function itemParts(question: QuestionRecord, lose: Lose): ItemParts | null {
  if (!isQuestionType(question.type)) return null;
  const exporting = definitionOf(question.type).exporting;
  if (!exporting) return null;
  const told = exporting(question);
  const writer = WRITERS[told.shape];
  if (!writer) return null;
  for (const what of told.unsaid) lose(what);
  return writer(told, lose);
}

const EXPLANATION = 'EXPLANATION';

function itemXml(question: QuestionRecord, identifier: string, parts: ItemParts): string {
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
    ${paragraphs(question.text)}
    ${parts.interaction}
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

function manifestXml(quiz: ExportableQuiz, items: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="${CP_NAMESPACE}" xmlns:xsi="${XSI}" xsi:schemaLocation="${CP_NAMESPACE} ${CP_SCHEMA}" identifier="quiz-${escapeXml(quiz.quiz_id.replace(/[^A-Za-z0-9_.-]/g, '-'))}">
  <metadata>
    <schema>QTI Package</schema>
    <schemaversion>3.0.0</schemaversion>
  </metadata>
  <organizations/>
  <resources>
    <resource identifier="test" type="imsqti_test_xmlv3p0" href="assessment-test.xml">
      <file href="assessment-test.xml"/>${items.map((id) => `\n      <dependency identifierref="${id}"/>`).join('')}
    </resource>${items
      .map(
        (id) =>
          `\n    <resource identifier="${id}" type="imsqti_item_xmlv3p0" href="items/${id}.xml">\n      <file href="items/${id}.xml"/>\n    </resource>`,
      )
      .join('')}
  </resources>
</manifest>
`;
}

/** The quiz as a QTI 3.0 package, and what each question loses in it. */
export async function exportQti(quiz: ExportableQuiz): Promise<QtiExport> {
  const notes: QtiExportNote[] = [];
  const files: Array<{ path: string; bytes: string }> = [];
  const items: string[] = [];
  quiz.questions.forEach((question, index) => {
    const lost: string[] = [];
    const parts = itemParts(question, (what) => lost.push(what));
    if (!parts) {
      lost.push(`the whole question: ${question.type} questions are not written to QTI yet`);
    } else {
      const identifier = `item-${index + 1}`;
      items.push(identifier);
      files.push({ path: `items/${identifier}.xml`, bytes: itemXml(question, identifier, parts) });
    }
    if (lost.length > 0)
      notes.push({ n: index + 1, question_id: question.question_id, type: question.type, lost });
  });
  const bytes = await writeZip([
    { path: 'imsmanifest.xml', bytes: manifestXml(quiz, items) },
    { path: 'assessment-test.xml', bytes: testXml(quiz, items) },
    ...files,
  ]);
  return { bytes, notes, items: items.length };
}
