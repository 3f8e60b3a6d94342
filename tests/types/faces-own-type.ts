// The surfaces' tables load each type's faces from its folder by a computed path
// (facesFromFolders in src/domain/question-types/face-table.ts), which the compiler cannot follow:
// this table holds each folder's faces to its own type instead. A type left out, or a face of
// another type in its folder, fails `npm run typecheck` here.
import type { QuestionType, ScorableQuestion } from '../../src/domain/question-types';
import type { EditorFace } from '../../src/dashboard/question-editor-face';
import type { ResultsFace } from '../../src/dashboard/question-results-face';
import type { FormFace } from '../../src/respondent/question-form-face';
import { face as yesNoEditor } from '../../src/domain/question-types/yes-no/editor';
import { face as yesNoResults } from '../../src/domain/question-types/yes-no/results';
import { face as yesNoForm } from '../../src/domain/question-types/yes-no/form';
import { face as multipleChoiceEditor } from '../../src/domain/question-types/multiple-choice/editor';
import { face as multipleChoiceResults } from '../../src/domain/question-types/multiple-choice/results';
import { face as multipleChoiceForm } from '../../src/domain/question-types/multiple-choice/form';
import { face as multipleSelectEditor } from '../../src/domain/question-types/multiple-select/editor';
import { face as multipleSelectResults } from '../../src/domain/question-types/multiple-select/results';
import { face as multipleSelectForm } from '../../src/domain/question-types/multiple-select/form';
import { face as shortTextEditor } from '../../src/domain/question-types/short-text/editor';
import { face as shortTextResults } from '../../src/domain/question-types/short-text/results';
import { face as shortTextForm } from '../../src/domain/question-types/short-text/form';
import { face as numberEditor } from '../../src/domain/question-types/number/editor';
import { face as numberResults } from '../../src/domain/question-types/number/results';
import { face as numberForm } from '../../src/domain/question-types/number/form';
import { face as orderingEditor } from '../../src/domain/question-types/ordering/editor';
import { face as orderingResults } from '../../src/domain/question-types/ordering/results';
import { face as orderingForm } from '../../src/domain/question-types/ordering/form';
import { face as matchingEditor } from '../../src/domain/question-types/matching/editor';
import { face as matchingResults } from '../../src/domain/question-types/matching/results';
import { face as matchingForm } from '../../src/domain/question-types/matching/form';
import { face as fillInBlanksEditor } from '../../src/domain/question-types/fill-in-blanks/editor';
import { face as fillInBlanksResults } from '../../src/domain/question-types/fill-in-blanks/results';
import { face as fillInBlanksForm } from '../../src/domain/question-types/fill-in-blanks/form';
import { face as scaleEditor } from '../../src/domain/question-types/scale/editor';
import { face as scaleResults } from '../../src/domain/question-types/scale/results';
import { face as scaleForm } from '../../src/domain/question-types/scale/form';
import { face as essayEditor } from '../../src/domain/question-types/essay/editor';
import { face as essayResults } from '../../src/domain/question-types/essay/results';
import { face as essayForm } from '../../src/domain/question-types/essay/form';
import { face as gridEditor } from '../../src/domain/question-types/grid/editor';
import { face as gridResults } from '../../src/domain/question-types/grid/results';
import { face as gridForm } from '../../src/domain/question-types/grid/form';
import { face as calculatedEditor } from '../../src/domain/question-types/calculated/editor';
import { face as calculatedResults } from '../../src/domain/question-types/calculated/results';
import { face as calculatedForm } from '../../src/domain/question-types/calculated/form';

type OwnFaces = {
  [T in QuestionType]: {
    editor: EditorFace<T>;
    results: ResultsFace<T>;
    form: FormFace<Extract<ScorableQuestion, { type: T }>>;
  };
};

export const FACES_OF_THEIR_OWN_TYPE: OwnFaces = {
  yes_no: { editor: yesNoEditor, results: yesNoResults, form: yesNoForm },
  multiple_choice: { editor: multipleChoiceEditor, results: multipleChoiceResults, form: multipleChoiceForm },
  multiple_select: { editor: multipleSelectEditor, results: multipleSelectResults, form: multipleSelectForm },
  short_text: { editor: shortTextEditor, results: shortTextResults, form: shortTextForm },
  number: { editor: numberEditor, results: numberResults, form: numberForm },
  ordering: { editor: orderingEditor, results: orderingResults, form: orderingForm },
  matching: { editor: matchingEditor, results: matchingResults, form: matchingForm },
  fill_in_blanks: { editor: fillInBlanksEditor, results: fillInBlanksResults, form: fillInBlanksForm },
  scale: { editor: scaleEditor, results: scaleResults, form: scaleForm },
  essay: { editor: essayEditor, results: essayResults, form: essayForm },
  grid: { editor: gridEditor, results: gridResults, form: gridForm },
  calculated: { editor: calculatedEditor, results: calculatedResults, form: calculatedForm },
};
