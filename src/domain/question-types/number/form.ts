import { numberBox, type FormFace } from '../../../respondent/question-form-face';
import type { NumberQuestion } from './index';

/** A number on the public form: the shared number box. */
export const face: FormFace<NumberQuestion> = { type: 'number', ...numberBox };
