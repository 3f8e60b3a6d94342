/**
 * The question types' faces in the in-chat view, one per type from its folder's `view.ts`,
 * keyed by each face's own `type` (faceTable throws when the view loads if a type has none or
 * two). A name added to the union without its face also fails the typecheck below.
 */
import { faceTable } from '../../../domain/question-types/face-table';
import type { QuestionType } from '../../../domain/question-types/names';
import { calculatedView } from '../../../domain/question-types/calculated/view';
import { essayView } from '../../../domain/question-types/essay/view';
import { fillInBlanksView } from '../../../domain/question-types/fill-in-blanks/view';
import { gridView } from '../../../domain/question-types/grid/view';
import { matchingView } from '../../../domain/question-types/matching/view';
import { multipleChoiceView } from '../../../domain/question-types/multiple-choice/view';
import { multipleSelectView } from '../../../domain/question-types/multiple-select/view';
import { numberView } from '../../../domain/question-types/number/view';
import { orderingView } from '../../../domain/question-types/ordering/view';
import { scaleView } from '../../../domain/question-types/scale/view';
import { shortTextView } from '../../../domain/question-types/short-text/view';
import { yesNoView } from '../../../domain/question-types/yes-no/view';
import type { ChartRow, KeyLine } from './face/view-face';
import type { PreviewOf, PreviewQuestion, ResultOf, ResultQuestion } from './view-types';

/**
 * A face whose shapes take what the tools answer for its type: each face reads its question
 * through a shape of its own (face/view-face.ts says why), checked here against the tools.
 */
interface FittingFace<T extends QuestionType> {
  readonly type: T;
  readonly key: (question: PreviewOf<T>) => KeyLine[];
  readonly bars: (question: ResultOf<T>) => ChartRow[];
  readonly figures?: (question: ResultOf<T>) => string | null;
}
const fits = <T extends QuestionType>(face: FittingFace<T>) => face;

const FACES = [
  fits(yesNoView),
  fits(multipleChoiceView),
  fits(multipleSelectView),
  fits(shortTextView),
  fits(numberView),
  fits(orderingView),
  fits(matchingView),
  fits(fillInBlanksView),
  fits(scaleView),
  fits(essayView),
  fits(gridView),
  fits(calculatedView),
] as const;

// A name added to the union without its face fails here.
type Missing = Exclude<QuestionType, (typeof FACES)[number]['type']>;
const everyTypeHasAFace: [Missing] extends [never] ? true : Missing = true;
void everyTypeHasAFace;

/** A face as the view calls it: with whichever type's question it is handed. */
interface AnyFace {
  readonly type: QuestionType;
  key(question: PreviewQuestion): KeyLine[];
  bars(question: ResultQuestion): ChartRow[];
  figures?(question: ResultQuestion): string | null;
}

// Each face takes its own type's question, and is handed only those: see faceOf.
const TABLE = faceTable(FACES as unknown as readonly AnyFace[]);

/** The face of a question's type. */
export function faceOf(question: { type: QuestionType }): AnyFace {
  return TABLE[question.type];
}
