import {
  optionChoices,
  radioFieldset,
  readText,
  type FormFace,
} from '../../../respondent/question-form-face';
import type { MultipleChoiceQuestion } from './index';

/** One option on the public form: a radio group of the options, in the quiz's order. */
export const face: FormFace<MultipleChoiceQuestion> = {
  type: 'multiple_choice',
  fieldset: (asked) => radioFieldset(asked, optionChoices(asked.question)),
  read: (form, questionId) => readText(form, questionId),
  // Any other value is one the page never offers.
  message: (_issue, tr) => tr.t('error.chooseListed'),
};
