import { faceTable } from '../domain/question-types/face-table';
import { calculatedResults } from '../domain/question-types/calculated/results';
import { essayResults } from '../domain/question-types/essay/results';
import { fillInBlanksResults } from '../domain/question-types/fill-in-blanks/results';
import { gridResults } from '../domain/question-types/grid/results';
import { matchingResults } from '../domain/question-types/matching/results';
import { multipleChoiceResults } from '../domain/question-types/multiple-choice/results';
import { multipleSelectResults } from '../domain/question-types/multiple-select/results';
import { numberResults } from '../domain/question-types/number/results';
import { orderingResults } from '../domain/question-types/ordering/results';
import { scaleResults } from '../domain/question-types/scale/results';
import { shortTextResults } from '../domain/question-types/short-text/results';
import { yesNoResults } from '../domain/question-types/yes-no/results';

/** Each question type's part of the results page (its results.ts), by its type. */
export const RESULTS_FACES = faceTable([
  yesNoResults,
  multipleChoiceResults,
  multipleSelectResults,
  shortTextResults,
  numberResults,
  orderingResults,
  matchingResults,
  fillInBlanksResults,
  scaleResults,
  essayResults,
  gridResults,
  calculatedResults,
]);
