import { QUESTION_TYPE_DEFINITIONS } from '../domain/question-types';
import { faceTable } from '../domain/question-types/face-table';
import { calculatedEditor } from '../domain/question-types/calculated/editor';
import { essayEditor } from '../domain/question-types/essay/editor';
import { fillInBlanksEditor } from '../domain/question-types/fill-in-blanks/editor';
import { gridEditor } from '../domain/question-types/grid/editor';
import { matchingEditor } from '../domain/question-types/matching/editor';
import { multipleChoiceEditor } from '../domain/question-types/multiple-choice/editor';
import { multipleSelectEditor } from '../domain/question-types/multiple-select/editor';
import { numberEditor } from '../domain/question-types/number/editor';
import { orderingEditor } from '../domain/question-types/ordering/editor';
import { scaleEditor } from '../domain/question-types/scale/editor';
import { shortTextEditor } from '../domain/question-types/short-text/editor';
import { yesNoEditor } from '../domain/question-types/yes-no/editor';

/** Each question type's part of the quiz editor (its editor.ts), by its type. */
export const EDITOR_FACES = faceTable([
  yesNoEditor,
  multipleChoiceEditor,
  multipleSelectEditor,
  shortTextEditor,
  numberEditor,
  orderingEditor,
  matchingEditor,
  fillInBlanksEditor,
  scaleEditor,
  essayEditor,
  gridEditor,
  calculatedEditor,
]);

// A field without its label would reach the teacher by its API name (`min_words`): refused at load.
for (const definition of QUESTION_TYPE_DEFINITIONS) {
  const labels: Partial<Record<string, string>> = EDITOR_FACES[definition.name].labels;
  const unlabelled = definition.takes.filter((field) => !labels[field]);
  if (unlabelled.length > 0) {
    throw new Error(`The editor face of ${definition.name} has no label for ${unlabelled.join(', ')}`);
  }
}
