import { facesFromFolders, faceTable } from '../domain/question-types/face-table';
import type { AnyResultsFace } from './question-results-face';

/** Each question type's part of the results page (its results.ts), by its type. */
export const RESULTS_FACES = faceTable(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a computed path: each type's folder
  facesFromFolders<AnyResultsFace>((folder) => require(`../domain/question-types/${folder}/results`)),
);
