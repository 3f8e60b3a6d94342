// The in-chat view loads each type's view.ts by a computed path (src/mcp/apps/view/faces.ts),
// which the compiler cannot follow: this table checks each folder's face against what the tools
// answer for its own type (each face reads its question through a shape of its own,
// face/view-face.ts says why). A type left out, or a shape the tools' answer does not fit, fails
// `npm run typecheck` here.
import type { QuestionType } from '../../src/domain/question-types/names';
import type { ChartRow, KeyLine } from '../../src/mcp/apps/view/face/view-face';
import type { PreviewOf, ResultOf } from '../../src/mcp/apps/view/view-types';
import { face as yesNoView } from '../../src/domain/question-types/yes-no/view';
import { face as multipleChoiceView } from '../../src/domain/question-types/multiple-choice/view';
import { face as multipleSelectView } from '../../src/domain/question-types/multiple-select/view';
import { face as shortTextView } from '../../src/domain/question-types/short-text/view';
import { face as numberView } from '../../src/domain/question-types/number/view';
import { face as orderingView } from '../../src/domain/question-types/ordering/view';
import { face as matchingView } from '../../src/domain/question-types/matching/view';
import { face as fillInBlanksView } from '../../src/domain/question-types/fill-in-blanks/view';
import { face as scaleView } from '../../src/domain/question-types/scale/view';
import { face as essayView } from '../../src/domain/question-types/essay/view';
import { face as gridView } from '../../src/domain/question-types/grid/view';
import { face as calculatedView } from '../../src/domain/question-types/calculated/view';

/** A face whose shapes take what the tools answer for its type. */
interface FittingFace<T extends QuestionType> {
  readonly type: T;
  readonly key: (question: PreviewOf<T>) => KeyLine[];
  readonly bars: (question: ResultOf<T>) => ChartRow[];
  readonly figures?: (question: ResultOf<T>) => string | null;
}

export const VIEW_FACES_FIT: { [T in QuestionType]: FittingFace<T> } = {
  yes_no: yesNoView,
  multiple_choice: multipleChoiceView,
  multiple_select: multipleSelectView,
  short_text: shortTextView,
  number: numberView,
  ordering: orderingView,
  matching: matchingView,
  fill_in_blanks: fillInBlanksView,
  scale: scaleView,
  essay: essayView,
  grid: gridView,
  calculated: calculatedView,
};
