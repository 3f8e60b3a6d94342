/**
 * The question types' faces in the in-chat view, one per type from its folder's `view.ts`
 * (exported as `face`), keyed by each face's own `type` (faceTable throws when the view loads if
 * a type has none or two). esbuild bundles every folder's view.ts for the computed `require`
 * below; tests/apps/view-faces-fit.ts checks at compile time that each face takes what the tools
 * answer for its own type.
 */
import { facesFromFolders, faceTable } from '../../../domain/question-types/face-table';
import type { QuestionType } from '../../../domain/question-types/names';
import type { ChartRow, KeyLine } from './face/view-face';
import type { PreviewQuestion, ResultQuestion } from './view-types';

// The bundler's require (scripts/build-views.js): the view's tsconfig types no Node globals.
declare const require: (path: string) => unknown;

/** A face as the view calls it: with whichever type's question it is handed. */
interface AnyFace {
  readonly type: QuestionType;
  key(question: PreviewQuestion): KeyLine[];
  bars(question: ResultQuestion): ChartRow[];
  figures?(question: ResultQuestion): string | null;
}

// Each face takes its own type's question, and is handed only those: see faceOf.
const TABLE = faceTable(
  // The `.ts` names the files for esbuild's glob (question-types/*/view.ts).
  facesFromFolders<AnyFace>((folder) => require(`../../../domain/question-types/${folder}/view.ts`)),
);

/** The face of a question's type. */
export function faceOf(question: { type: QuestionType }): AnyFace {
  return TABLE[question.type];
}
