import type { FieldIssue, FieldIssueCode } from '../domain/errors';
import type { QuestionType } from '../domain/question-types';
import { EDITOR_FACES } from './question-editor-faces';
import { EDITOR_SETTINGS } from './quiz-draft';

/**
 * The quiz editor's words for a refused field: where it is, by the labels the teacher sees
 * ("Question 3, Right number"), and what to do, by the issue's code and figures. The domain's
 * English sentence is never read, so no API name (`correct_number`) reaches the page.
 */

/**
 * The editor's label of each field of a quiz or question that is no type's own, by its name in the
 * domain's path; a question's typed fields are labelled by its type's editor face.
 */
const QUIZ_LABELS: Readonly<Record<string, string>> = {
  title: 'Title',
  description: 'Description',
  questions: 'Questions',
  text: 'Question',
  explanation: 'Explanation',
  prompt: 'Prompt',
  match: 'Match',
  label: 'Text',
  score: 'Score',
  image: 'Picture',
  image_alt: 'Alt text of the picture',
};

/** Each setting by the label of its control (the settings table), without the form's "(optional)". */
const SETTING_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  EDITOR_SETTINGS.map((entry) => [entry.name, entry.editor!.label.replace(/ \(optional\)$/, '')]),
);

/** A field's label by its domain name, in a question of `type` when it is one's; the name itself only for one the editor has no label for. */
export function editorLabel(name: string, type?: QuestionType): string {
  const typed: Partial<Record<string, string>> = type ? EDITOR_FACES[type].labels : {};
  return typed[name] ?? QUIZ_LABELS[name] ?? SETTING_LABELS[name] ?? name;
}

type Params = Readonly<Record<string, string | number>>;
/** Another field's label, as the refused field's place names it. */
type Label = (name: string) => string;

const count = (value: unknown) => (typeof value === 'number' ? value : Number(value));

/** What to do about each code, in the editor's words; a new code does not compile without its line. */
export const EDITOR_WORDING: Record<FieldIssueCode, (params: Params, label: Label) => string> = {
  missing: () => 'fill this in',
  too_long: (params) => `use at most ${count(params.max)} characters`,
  too_many: (params) => `at most ${count(params.max)} are allowed`,
  too_few: (params) =>
    `add at least ${count(params.min)} (there ${count(params.got) === 1 ? 'is' : 'are'} ${count(params.got)})`,
  not_a_number: () => 'enter a number, such as 3 or 3.5',
  not_whole: () => 'enter a whole number',
  too_small: (params) => `use ${count(params.min)} or more`,
  too_large: (params) => `use ${count(params.max)} or less`,
  more_than_questions: (params) =>
    `the quiz has ${count(params.max)} question${count(params.max) === 1 ? '' : 's'}: use at most ${count(params.max)}, or leave it empty to draw them all`,
  not_one_of: () => 'choose one of the values listed',
  not_a_time: () => 'pick a date and a time',
  needs_setting: (params, label) => `needs “${label(String(params.setting))}” ticked`,
  not_after: (params, label) => `must be after “${label(String(params.after))}”`,
  passed: () => 'has passed: pick a later time, or leave it empty',
  needs_questions: () => 'a published quiz keeps at least one question: add one',
  unknown_field: () => 'is not a field of this form',
  not_for_type: () => 'does not apply to this kind of question',
  invalid: () => 'is not valid here',
  not_the_attempt_email: () => 'use the email address the attempt started with',
  repeated: (params) => `repeats line ${count(params.line)}: give each its own text`,
  not_with: (params, label) => `cannot go with “${label(String(params.other))}”: leave one of them empty`,
  blank_without_entry: (params) =>
    `the question has [[${count(params.blank)}]] but no line for it: add line ${count(params.blank)}, or remove the marker`,
  blank_without_marker: (params) =>
    `line ${count(params.blank)} has no [[${count(params.blank)}]] in the question: write it where the blank goes, or remove the line`,
};

/**
 * "Question 3, Right number: fill this in" for `questions[2].correct_number`; "Question 2,
 * option 1, Score: ..." for an option's; "Closes at: ..." for a setting: where the teacher looks.
 */
export function editorMessage(
  issue: Pick<FieldIssue, 'field' | 'code' | 'params'>,
  /** The type of the draft's question at an index, whose face labels its fields. */
  typeAt: (index: number) => QuestionType | undefined = () => undefined,
): string {
  const question = /^questions\[(\d+)\](?:\.options\[(\d+)\])?(?:\.(\w+))?/.exec(issue.field);
  // A picture's alt text is a field of its own on the page.
  const key = /\.image\.alt$/.test(issue.field)
    ? 'image_alt'
    : question
      ? question[3]
      : /(\w+)$/.exec(issue.field)?.[1];
  // A question's own field (not an option's) is labelled by the question's type.
  const type = question && question[2] === undefined ? typeAt(Number(question[1])) : undefined;
  const label = (name: string) => editorLabel(name, type);
  const place = question
    ? [
        `Question ${Number(question[1]) + 1}`,
        question[2] === undefined ? '' : `option ${Number(question[2]) + 1}`,
        key ? label(key) : '',
      ]
        .filter(Boolean)
        .join(', ')
    : key
      ? editorLabel(key)
      : '';
  const text = EDITOR_WORDING[issue.code ?? 'invalid'](issue.params ?? {}, label);
  return place ? `${place}: ${text}` : text;
}
