/**
 * The question types' faces in the in-chat view, one per type from its folder's `view.ts`,
 * keyed by each face's own `type`. A type missing here fails the typecheck below, and a type
 * missing or listed twice throws when the view loads.
 */
import { QUESTION_TYPES, type QuestionType } from '../../../domain/question-types/names';
import { essayView } from '../../../domain/question-types/essay/view';
import { fillInBlanksView } from '../../../domain/question-types/fill-in-blanks/view';
import { matchingView } from '../../../domain/question-types/matching/view';
import { multipleChoiceView } from '../../../domain/question-types/multiple-choice/view';
import { multipleSelectView } from '../../../domain/question-types/multiple-select/view';
import { numberView } from '../../../domain/question-types/number/view';
import { orderingView } from '../../../domain/question-types/ordering/view';
import { scaleView } from '../../../domain/question-types/scale/view';
import { shortTextView } from '../../../domain/question-types/short-text/view';
import { yesNoView } from '../../../domain/question-types/yes-no/view';
import type { PreviewQuestion, ResultQuestion, ViewFace } from './view-types';

const FACES = [
  yesNoView,
  multipleChoiceView,
  multipleSelectView,
  shortTextView,
  numberView,
  orderingView,
  matchingView,
  fillInBlanksView,
  scaleView,
  essayView,
] as const;

// A name added to the union without its face fails here.
type Missing = Exclude<QuestionType, (typeof FACES)[number]['type']>;
const everyTypeHasAFace: [Missing] extends [never] ? true : Missing = true;
void everyTypeHasAFace;

/** A face as the view calls it: with whichever type's question it is handed. */
type AnyFace = {
  key(question: PreviewQuestion): ReturnType<ViewFace<QuestionType>['key']>;
  bars(question: ResultQuestion): ReturnType<ViewFace<QuestionType>['bars']>;
  figures?(question: ResultQuestion): string | null;
};

const table = new Map<string, AnyFace>();
for (const face of FACES) {
  if (table.has(face.type)) throw new Error(`two view faces for the question type ${face.type}`);
  table.set(face.type, face as unknown as AnyFace);
}
for (const type of QUESTION_TYPES) {
  if (!table.has(type)) throw new Error(`no view face for the question type ${type}`);
}

/** The face of a question's type (each face takes its own type's question: the table is checked above). */
export function faceOf(question: { type: QuestionType }): AnyFace {
  return table.get(question.type)!;
}
