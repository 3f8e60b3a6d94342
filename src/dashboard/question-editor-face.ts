import type { TypedField } from '../domain/question-types/definition';
import type { QuestionType } from '../domain/question-types/names';
import { IMAGE_LIMITS } from '../domain/images/decode-image';
import { LIMITS } from '../domain/limits';
import { html, type Html } from '../web/html';
import { errorsFor, field, fieldErrorText, type FieldError } from '../web/parts';
import type { DraftPicture, DraftQuestion, QuizDraft } from './quiz-draft';
import { parseAction, placeAfter } from './quiz-draft-actions';

/**
 * What the quiz editor asks of each question type (its face, in the type's folder as editor.ts),
 * and the parts of the form the faces build their fields from. The editor page asks the faces'
 * table (question-editor-faces.ts), so it names no type; this module imports no face.
 */

export type { DraftQuestion } from './quiz-draft';
export { PAIR_MARK } from './quiz-draft';

/** A type's part of the editor. */
export interface EditorFace<T extends QuestionType = QuestionType> {
  readonly type: T;
  /** Its name on the question's badge. */
  readonly name: string;
  /** The label of its "add" button. */
  readonly add: string;
  /**
   * Each field it takes (its definition's `takes`) as a refusal names it: "Question 3, Fewest
   * words: use 1 or more", never the API's name. The faces' table checks that none is missing.
   */
  readonly labels: { readonly [F in TypedField]?: string };
  /** Its key fields, between the question's text and picture and its explanation. */
  keyFields(base: string, index: number, question: DraftQuestion, view: EditorView): Html;
}

/** `questions[2].options[1].label` (the domain's field) and `questions[2][options][1][label]` (the form's name) as one element id. */
export function fieldId(field: string): string {
  return field
    .replace(/\]\[|\]\.|\[|\./g, '-')
    .replace(/\]/g, '')
    .replace(/-+$/, '');
}

/** What the editor is showing: where a teacher's last button left them, and the zone of its times. */
export interface EditorView {
  errors: FieldError[];
  /** The element to focus on load, so the keyboard stays where the change was made. */
  focus: string;
  /** The form's address, to which each button adds the fragment it lands on. */
  action: string;
  timeZone: string;
  /** The draft as shown, from which each button's landing place is worked out. */
  draft: QuizDraft;
}

export function errorOf(errors: FieldError[], id: string): Html {
  return fieldErrorText(id, errorsFor(errors, id));
}

export interface TextOptions {
  name: string;
  label: Html | string;
  value: string;
  view: EditorView;
  hint?: string;
  multiline?: boolean;
  maxlength?: number;
  inputmode?: 'numeric' | 'decimal';
  className?: string;
  type?: 'text' | 'datetime-local';
  /** Owner's text in any script. */
  text?: boolean;
}

/** A field of the editor: its id from the form name, its errors and focus from the view. */
export function textField(options: TextOptions): Html {
  const id = fieldId(options.name);
  return field({
    id,
    name: options.name,
    label: options.label,
    value: options.value,
    errors: errorsFor(options.view.errors, id),
    ...(options.hint ? { hint: options.hint } : {}),
    ...(options.multiline ? { multiline: true } : {}),
    ...(options.maxlength ? { maxlength: options.maxlength } : {}),
    ...(options.inputmode ? { inputmode: options.inputmode } : {}),
    ...(options.className ? { className: options.className } : {}),
    ...(options.type ? { type: options.type } : {}),
    ...(options.text ? { dir: 'auto' as const } : {}),
  });
}

/**
 * A submit button that changes the form; `lands` is the element the page comes back at: the
 * button posts to the form's address with that fragment (formaction), so the browser scrolls
 * there, and assets/editor-place.js focuses the element the view names.
 */
export function actionButton(
  view: EditorView,
  action: string,
  label: string,
  accessible: string,
  className = 'secondary small',
  id?: string,
): Html {
  const lands = placeAfter(view.draft, parseAction(action));
  return html`<button
    type="submit"
    name="_action"
    value="${action}"
    class="${className}"
    formaction="${view.action}#${lands}"
    ${id ? html`id="${id}"` : ''}
  >
    ${label}${accessible ? html`<span class="sr-only"> ${accessible}</span>` : ''}
  </button>`;
}

/** Where the editor shows a picture: a stored one from our origin, an upload not yet saved from its owner's route. */
export const picturePreviewPath = (ref: string) =>
  ref.startsWith('upl_') ? `/dashboard/pictures/${ref}` : ref;

/**
 * A question's or an option's picture: the current one with its alt text, a file field to send
 * one (or another), its alt text (required with a picture) and the buttons that upload and
 * remove it. The file travels with the whole form (multipart), so Upload works without script.
 */
export function pictureFields(
  base: string,
  picture: DraftPicture,
  view: EditorView,
  place: string,
  action: string,
): Html {
  const fileId = fieldId(`${base}[image_file]`);
  const fileErrors = errorsFor(view.errors, fileId);
  const hintId = `${fileId}-hint`;
  const describedBy = [hintId, fileErrors.length > 0 ? `${fileId}-error` : ''].filter(Boolean).join(' ');
  const mb = IMAGE_LIMITS.maxBytes / (1024 * 1024);
  return html`<div class="picture-field" id="${fieldId(base)}-picture">
    ${
      picture.ref
        ? html`<figure class="picture-current">
            <a class="question-image" href="${picturePreviewPath(picture.ref)}" target="_blank" rel="noopener"
              ><img
                src="${picturePreviewPath(picture.ref)}"
                alt="${picture.alt}"
                ${picture.width ? html`width="${picture.width}"` : ''}
                ${picture.height ? html`height="${picture.height}"` : ''}
              /><span class="sr-only">Open the picture at full size</span></a
            >
            <figcaption>
              ${picture.ref.startsWith('upl_') ? 'Uploaded picture (stored when you save)' : 'Current picture'}
              ${picture.alt ? html`: “${picture.alt}”` : ''}
            </figcaption>
          </figure>`
        : ''
    }
    <input type="hidden" name="${base}[image_ref]" value="${picture.ref}" />
    <input type="hidden" name="${base}[image_width]" value="${picture.width}" />
    <input type="hidden" name="${base}[image_height]" value="${picture.height}" />
    <div class="field">
      <label for="${fileId}"
        >${picture.ref ? `Replace the picture of ${place}` : `Picture for ${place} (optional)`}</label
      >
      <p class="hint" id="${hintId}">PNG, JPEG, WebP or GIF, at most ${mb} MB; choose a file, then Upload.</p>
      ${fieldErrorText(fileId, fileErrors)}
      <input
        type="file"
        id="${fileId}"
        name="${base}[image_file]"
        accept="image/png,image/jpeg,image/webp,image/gif"
        aria-describedby="${describedBy}"
        ${fileErrors.length > 0 ? html`aria-invalid="true"` : ''}
      />
    </div>
    ${textField({
      name: `${base}[image_alt]`,
      label: `Alt text of the picture of ${place}`,
      value: picture.alt,
      view,
      maxlength: LIMITS.imageAltMax,
      text: true,
      hint: 'Required with a picture: what it shows, for people who cannot see it.',
    })}
    <p class="picture-tools">
      ${actionButton(view, `upload-image:${action}`, 'Upload', `the picture of ${place}`)}
      ${picture.ref ? actionButton(view, `remove-image:${action}`, 'Remove the picture', `of ${place}`, 'secondary small danger') : ''}
    </p>
  </div>`;
}

/** The options of a choice question, with how respondents answer them (`how`, from the type's entry). */
export function optionFields(
  base: string,
  index: number,
  question: DraftQuestion,
  view: EditorView,
  how: string,
): Html {
  const id = fieldId(`${base}[options]`);
  const hasError = view.errors.some((error) => error.field === id);
  const count = question.options.length;
  return html`<fieldset class="options${hasError ? ' has-error' : ''}" id="${id}">
    <legend>
      Options
      <span class="hint">(${how})</span>
    </legend>
    ${errorOf(view.errors, id)}
    <ol class="option-list">
      ${question.options.map((option, optionIndex) => {
        const name = `${base}[options][${optionIndex}]`;
        return html`<li class="option-row">
          ${textField({
            name: `${name}[label]`,
            label: html`Option ${optionIndex + 1}`,
            value: option.label,
            view,
            maxlength: LIMITS.optionLabelMax,
            text: true,
          })}
          ${textField({
            name: `${name}[score]`,
            label: 'Score',
            value: option.score,
            view,
            inputmode: 'numeric',
            className: 'short',
          })}
          ${pictureFields(
            name,
            option.image,
            view,
            `option ${optionIndex + 1} of question ${index + 1}`,
            `${index}:${optionIndex}`,
          )}
          ${actionButton(
            view,
            `remove-option:${index}:${optionIndex}`,
            'Remove',
            `option ${optionIndex + 1} of question ${index + 1}`,
            'link',
          )}
        </li>`;
      })}
    </ol>
    ${
      count < LIMITS.optionsMax
        ? actionButton(
            view,
            `add-option:${index}`,
            'Add an option',
            `to question ${index + 1}`,
            'secondary small',
            `${id}-add`,
          )
        : ''
    }
  </fieldset>`;
}

export function pointsField(base: string, question: DraftQuestion, view: EditorView, hint: string): Html {
  return textField({
    name: `${base}[points]`,
    label: 'Points for the right answer',
    value: question.points,
    view,
    hint,
    inputmode: 'numeric',
    className: 'short',
  });
}
