import type { ImportShape, TypeExport } from '../question-types';
import { imagesLost, pointsOf, toldOf, type ExportedQuestion, type QuizExporter } from './exported';

/**
 * One quiz as GIFT, the format import reads back (domain/import/gift.ts): one question a line,
 * its special characters escaped and new lines written `\n`, each question as its type tells it
 * in the importer's shapes (`exporting`). GIFT has no grade: every question is worth one, and an
 * answer's weight (`%50%`) is its share of it, so points other than 1 are named as lost (the
 * shares between options are kept).
 */

/** Backslash first, so the escapes written after are not escaped again. */
const escapeGift = (text: string) =>
  text.replace(/[\\~=#{}:]/g, (mark) => `\\${mark}`).replace(/\r?\n/g, '\\n');

const weight = (share: number) => `%${+share.toFixed(5)}%`;

/** An answer with a weight; written even when 0 or 100 if the label starts with `%`, which would read as one. */
function weighted(mark: '=' | '~', share: number | null, label: string): string {
  const shown = share === null && label.startsWith('%') ? (mark === '=' ? 100 : 0) : share;
  return `${mark}${shown === null ? '' : weight(shown)}${escapeGift(label)}`;
}

type Body =
  | {
      answers: string;
      lost: string[];
      /** The text before and after the answers (a missing word), when they are not at its end. */
      around?: [string, string];
    }
  | { leftOut: string };

const GRADE_LOST = 'points (GIFT has no grade: the question reads back as worth 1)';
const PAIR_POINTS_LOST = 'points (GIFT has no grade: each pair reads back as worth 1)';
const BLANK_POINTS_LOST = 'points (GIFT has no grade: the blank reads back as worth 1)';

/**
 * One blank is GIFT's missing word: the answers stand where the blank is, with text after them
 * (answers that end the text make a whole question of another kind). Typed: each accepted answer
 * right; a choice list: the right option `=`, the others `~`.
 */
function missingWord(told: TypeExport, text: string): Body {
  const blanks = told.blanks ?? [];
  const [before, after, ...more] = text.split(BLANK_MARKER_TEXT);
  if (blanks.length !== 1 || more.length > 0 || after === undefined) {
    return { leftOut: 'more than one blank (GIFT holds one missing word)' };
  }
  if (after.trim() === '') {
    return { leftOut: 'a blank at the end of the text (GIFT needs text after its missing word)' };
  }
  const blank = blanks[0]!;
  const answers = blank.answers
    .map((answer) => weighted(answer.fraction >= 100 ? '=' : '~', null, answer.text))
    .join(' ');
  return {
    answers,
    lost: blank.grade === 1 ? [] : [BLANK_POINTS_LOST],
    around: [before!, after],
  };
}

const BLANK_MARKER_TEXT = '[[1]]';
const gradeLost = (grade: number) => (grade === 1 ? [] : [GRADE_LOST]);

/** What each shape becomes; a shape GIFT cannot hold, or this export does not write, says why. */
const WRITERS: Readonly<Record<ImportShape, (told: TypeExport) => Body>> = {
  truth: (told) => ({
    answers: told.answers[0]?.text === 'false' ? 'FALSE' : 'TRUE',
    lost: gradeLost(told.grade),
  }),
  one_choice: (told) => {
    const points = pointsOf(told);
    const best = Math.max(...points);
    if (best <= 0 || points.every((value) => value === best)) {
      return {
        answers: told.answers
          .map((option, index) => weighted('~', points[index]! * 100, option.text))
          .join(' '),
        lost: ['its one right option (no option scores more than the others): reads back as several to tick'],
      };
    }
    return {
      answers: told.answers
        .map((option, index) =>
          points[index] === best
            ? weighted('=', null, option.text)
            : weighted('~', points[index] === 0 ? null : (points[index]! / best) * 100, option.text),
        )
        .join(' '),
      lost: gradeLost(best),
    };
  },
  many_choices: (told) => {
    const points = pointsOf(told);
    const total = points.reduce((sum, value) => sum + Math.max(0, value), 0);
    const grade = total > 0 ? total : 1;
    return {
      answers: told.answers
        .map((option, index) => weighted('~', (points[index]! / grade) * 100, option.text))
        .join(' '),
      lost: gradeLost(grade),
    };
  },
  text_answers: (told) =>
    told.answers.length === 0
      ? { leftOut: 'a short answer without accepted answers (GIFT reads {} as an essay)' }
      : {
          answers: told.answers.map((accepted) => weighted('=', null, accepted.text)).join(' '),
          lost: gradeLost(told.grade),
        },
  numeric: (told) => ({
    answers: `#${told.answers.map((right) => `${right.text}:${right.tolerance ?? 0}`).join(' =')}`,
    lost: gradeLost(told.grade),
  }),
  sequence: () => ({ leftOut: 'GIFT has no ordering question' }),
  pairs: (told) => {
    const pairs = told.pairs?.list ?? [];
    return {
      answers: [
        ...pairs.map((pair) => `=${escapeGift(pair.prompt)} -> ${escapeGift(pair.match)}`),
        ...(told.pairs?.extra ?? []).map((match) => `= -> ${escapeGift(match)}`),
      ].join(' '),
      // Read back, each pair is worth one.
      lost: told.grade === pairs.length ? [] : [PAIR_POINTS_LOST],
    };
  },
  blanks: () => ({ leftOut: 'blanks are written to GIFT one at a time (a missing word)' }),
  open: (told) => ({
    answers: '',
    lost: [
      ...gradeLost(told.grade),
      ...((told.essay?.rubric ?? []).length > 0 ? ['its rubric (GIFT has none)'] : []),
      ...(told.essay?.minWords || told.essay?.maxWords ? ['word limits (GIFT has none)'] : []),
    ],
  }),
  rating: () => ({ leftOut: 'GIFT has no rating scale question' }),
  matrix: () => ({ leftOut: 'GIFT has no grid question' }),
  formula: () => ({ leftOut: 'GIFT has no question with numbers drawn per attempt' }),
};

export const giftExporter: QuizExporter = {
  contentType: 'text/plain; charset=utf-8',
  extension: 'gift.txt',
  build(quiz) {
    const notes: ExportedQuestion[] = [];
    const title = quiz.title.replace(/\r?\n/g, ' ');
    const lines = [`// ${title}`, `$CATEGORY: $course$/top/${title}`, ''];
    quiz.questions.forEach((record, index) => {
      const n = index + 1;
      const told = toldOf(record);
      const body: Body = !told
        ? { leftOut: 'its type is not exported yet' }
        : told.shape === 'blanks'
          ? missingWord(told, record.text)
          : WRITERS[told.shape](told);
      const note = { n, question_id: record.question_id, type: record.type };
      if ('leftOut' in body) {
        notes.push({ ...note, left_out: true, lost: [body.leftOut] });
        lines.push(`// question ${n} left out: ${body.leftOut}`, '');
        return;
      }
      const lost = [...told!.unsaid, ...body.lost, ...imagesLost(record)];
      if (lost.length > 0) notes.push({ ...note, lost });
      const explanation = record.explanation ? ` ####${escapeGift(record.explanation)}` : '';
      const [before, after] = body.around ?? [`${record.text} `, ''];
      lines.push(`::Q${n}:: ${escapeGift(before)}{${body.answers}${explanation}}${escapeGift(after)}`, '');
    });
    return { body: lines.join('\n'), notes };
  },
};
