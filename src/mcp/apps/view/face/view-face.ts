/**
 * What a question type gives the in-chat view: its face, in its folder's `view.ts`, as data the
 * view turns into elements. This file imports nothing, and a face reads its question through a
 * shape of its own, so the types' folders reach no server code through the view (the domain's
 * folders form a DAG, .dependency-cruiser.cjs); the view's table (../faces.ts) checks that each
 * shape fits what the tools answer.
 */

/**
 * One item of a list under a question: `owned` is the owner's own text (an option, an item),
 * drawn typeset when the server sent it so; `text` follows it as plain text.
 */
export interface KeyItem {
  owned?: string;
  text?: string;
}

/** A line of a question's key in the preview: a note in words, or a list of the key's parts. */
export type KeyLine = { note: string } | { list: KeyItem[]; ordered?: boolean };

/** One bar: `best` marks a right answer; `owned` when its label is the owner's own text. */
export interface ChartRow {
  label: string;
  count: number;
  best: boolean;
  owned?: boolean;
}

/**
 * A type's face: `Preview` is what it reads of its question in the preview, `Result` of its
 * statistics in the results (functions, not methods, so the table's check is strict).
 */
export interface ViewFace<T extends string, Preview, Result> {
  readonly type: T;
  /** Its key under the question's text in the preview, to a credential that may read it. */
  readonly key: (question: Preview) => KeyLine[];
  /** Its answers in the results as bars, with how often each was given. */
  readonly bars: (question: Result) => ChartRow[];
  /** A line of figures above its bars (a scale's mean and median), when it has one. */
  readonly figures?: (question: Result) => string | null;
}
