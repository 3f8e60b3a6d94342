import type { FieldIssue } from '../domain/errors';
import { facesFromFolders, faceTable } from '../domain/question-types/face-table';
import { storedTypeOf, toScorable, type QuestionType } from '../domain/question-types';
import type { QuestionRow } from '../db/repositories';
import type { Html } from '../web/html';
import type { AskedQuestion, FormFace, PostedForm, Translator } from './question-form-face';

/** Each type's face on the public form (its form.ts), by the type it names. */
// Loaded by path, a face's own type is checked outside src/ (tests/types/faces-own-type.ts);
// here it is any name of the union, so a name added to it fails where its faces are written.
type LoadedForm = Omit<FormFace, 'type'> & { readonly type: QuestionType };
const FORMS: Readonly<Record<QuestionType, LoadedForm>> = faceTable(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a computed path: each type's folder
  facesFromFolders<LoadedForm>((folder) => require(`../domain/question-types/${folder}/form`)),
);

// A stored key is checked against its own type's schema (toScorable), so the face of its type
// is handed a key of that type: the one place the form pairs the two.

/** A question's control on the form, as its type draws it. */
export function questionControl(asked: AskedQuestion): Html {
  const key = toScorable(asked.question);
  return FORMS[key.type].fieldset(asked, key);
}

/** The raw value the form sent for a question; undefined when it was left unanswered. */
export function readQuestionValue(form: PostedForm, question: QuestionRow): string | undefined {
  const key = toScorable(question);
  return FORMS[key.type].read(form, question.id, key);
}

/**
 * A problem with a question's answer in the page's words, as its type says it (by its stored
 * type, read as storedTypeOf reads any row).
 */
export function questionProblem(storedType: string, issue: FieldIssue, tr: Translator): string {
  return FORMS[storedTypeOf(storedType)].message(issue, tr);
}
