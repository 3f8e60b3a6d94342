import { numberBox, type FormFace } from '../../../respondent/question-form-face';
import type { CalculatedQuestion } from './index';

/**
 * A calculated question on the public form: the number box of a number question. Its text, with
 * the attempt's own values (and their units) in it, is the question's as the attempt shows it.
 */
export const face: FormFace<CalculatedQuestion> = { type: 'calculated', ...numberBox };
