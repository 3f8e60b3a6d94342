import { LIMITS, QUESTION_TYPES } from '../domain/quiz-input';
import { newQuestion, noPicture, type QuizDraft } from './quiz-draft';

/**
 * The editor's buttons other than Save. Each is a submit button (`name="_action"`) that posts the
 * whole form, so they work without JavaScript: the page comes back with the change made and
 * everything else as typed. Nothing is stored until Save.
 */
export type DraftAction =
  | { kind: 'save' }
  | { kind: 'add'; type: QuizDraft['questions'][number]['type'] }
  | { kind: 'remove' | 'up' | 'down' | 'add-option'; question: number }
  | { kind: 'remove-option'; question: number; option: number }
  /** A picture's buttons: `option` absent for the question's own. Upload takes the form's files (quiz-editor-routes.ts). */
  | { kind: 'upload-image' | 'remove-image'; question: number; option?: number };

/** `add:yes_no`, `up:2`, `remove-option:2:1`; anything else (Enter in a field) is Save. */
export function parseAction(value: unknown): DraftAction {
  if (typeof value !== 'string') return { kind: 'save' };
  const [kind, first, second] = value.split(':');
  const type = QUESTION_TYPES.find((candidate) => candidate === first);
  if (kind === 'add' && type) return { kind: 'add', type };
  const question = Number(first);
  if (!Number.isInteger(question) || question < 0) return { kind: 'save' };
  if (kind === 'remove' || kind === 'up' || kind === 'down' || kind === 'add-option') {
    return { kind, question };
  }
  const option = Number(second);
  if (kind === 'remove-option' && Number.isInteger(option) && option >= 0) {
    return { kind, question, option };
  }
  if (kind === 'upload-image' || kind === 'remove-image') {
    if (second === undefined) return { kind, question };
    if (Number.isInteger(option) && option >= 0) return { kind, question, option };
  }
  return { kind: 'save' };
}

/** The draft with one change made; an action that does not apply (out of range, at a limit) changes nothing. */
export function applyAction(draft: QuizDraft, action: DraftAction): QuizDraft {
  const questions = draft.questions.map((question) => ({ ...question, options: [...question.options] }));
  const next = { ...draft, questions };
  if (action.kind === 'save') return next;
  if (action.kind === 'add') {
    if (questions.length < LIMITS.questionsMax) questions.push(newQuestion(action.type));
    return next;
  }
  const question = questions[action.question];
  if (!question) return next;
  switch (action.kind) {
    case 'remove':
      questions.splice(action.question, 1);
      break;
    case 'up':
    case 'down': {
      const to = action.question + (action.kind === 'up' ? -1 : 1);
      if (to >= 0 && to < questions.length) {
        questions[action.question] = questions[to]!;
        questions[to] = question;
      }
      break;
    }
    case 'add-option':
      if (question.options.length < LIMITS.optionsMax)
        question.options.push({ label: '', score: '0', image: noPicture() });
      break;
    case 'remove-option':
      question.options.splice(action.option, 1);
      break;
    case 'remove-image': {
      const holder = action.option === undefined ? question : question.options[action.option];
      if (holder) holder.image = noPicture();
      break;
    }
  }
  return next;
}

/**
 * The id of the element a change leaves the teacher at, from the draft before it: the new
 * question's text, the moved question's button, the question that took a removed one's place, the
 * new option. The button posts to the page with it as the fragment, and the page focuses it.
 */
export function placeAfter(draft: QuizDraft, action: DraftAction): string {
  const count = draft.questions.length;
  const at = (index: number, rest: string) => `questions-${index}-${rest}`;
  switch (action.kind) {
    case 'add':
      return at(Math.min(count, LIMITS.questionsMax - 1), 'text');
    case 'up':
    case 'down': {
      const to = Math.max(0, Math.min(count - 1, action.question + (action.kind === 'up' ? -1 : 1)));
      // The same button where the question went, unless it is now at the end that has none.
      if (action.kind === 'up') return at(to, to > 0 ? 'up' : 'down');
      return at(to, to < count - 1 ? 'down' : 'up');
    }
    case 'remove':
      return count <= 1 ? 'questions-title' : at(Math.min(action.question, count - 2), 'text');
    case 'add-option': {
      const options = draft.questions[action.question]?.options.length ?? 0;
      return at(action.question, `options-${Math.min(options, LIMITS.optionsMax - 1)}-label`);
    }
    case 'remove-option':
      return at(action.question, 'options-add');
    // After an upload, the picture's alt text, to be written next; after a removal, its file field.
    case 'upload-image':
    case 'remove-image': {
      const holder = action.option === undefined ? '' : `options-${action.option}-`;
      return at(action.question, `${holder}${action.kind === 'upload-image' ? 'image_alt' : 'image_file'}`);
    }
    default:
      return '';
  }
}
