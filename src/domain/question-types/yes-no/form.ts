import { radioFieldset, type FormFace, readText } from '../../../respondent/question-form-face';
import type { YesNoQuestion } from './index';

/** Yes or no on the public form: a radio group of the two, in the page's language. */
export const face: FormFace<YesNoQuestion> = {
  type: 'yes_no',
  fieldset: (asked) =>
    radioFieldset(asked, [
      { value: 'yes', label: asked.tr.t('quiz.yes'), rich: false },
      { value: 'no', label: asked.tr.t('quiz.no'), rich: false },
    ]),
  read: (form, questionId) => readText(form, questionId),
  // Any other value is one the page never offers.
  message: (_issue, tr) => tr.t('error.chooseListed'),
};
