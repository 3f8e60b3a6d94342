import { QUESTION_TYPE_DEFINITIONS } from '../domain/question-types';
import { facesFromFolders, faceTable } from '../domain/question-types/face-table';
import type { EditorFace } from './question-editor-face';

/** Each question type's part of the quiz editor (its editor.ts), by its type. */
export const EDITOR_FACES = faceTable(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a computed path: each type's folder
  facesFromFolders<EditorFace>((folder) => require(`../domain/question-types/${folder}/editor`)),
);

// A field without its label would reach the teacher by its API name (`min_words`): refused at load.
for (const definition of QUESTION_TYPE_DEFINITIONS) {
  const labels: Partial<Record<string, string>> = EDITOR_FACES[definition.name].labels;
  const unlabelled = definition.takes.filter((field) => !labels[field]);
  if (unlabelled.length > 0) {
    throw new Error(`The editor face of ${definition.name} has no label for ${unlabelled.join(', ')}`);
  }
}
