import { QUESTION_TYPES, type QuestionType } from './names';

/** The types no face of the list names (never when each has one). */
type Missing<F extends { readonly type: QuestionType }> = Exclude<QuestionType, F['type']>;

/**
 * A surface's faces of the question types (its editor fields, its statistics, its form control),
 * keyed by the type each face names: the one table a surface asks, so the surface names no type.
 * A list of faces each typed by its own type that leaves one out fails the typecheck (the call
 * then asks for the missing types as a second argument); whatever the compiler cannot see, a type
 * left out or given twice, throws when the module loads.
 */
export function faceTable<F extends { readonly type: QuestionType }>(
  faces: readonly F[],
  ..._complete: [Missing<F>] extends [never] ? [] : [missingFacesOf: Missing<F>]
): Readonly<Record<QuestionType, F>> {
  const table = new Map<QuestionType, F>();
  for (const face of faces) {
    if (!(QUESTION_TYPES as readonly string[]).includes(face.type)) {
      throw new Error(`A face names ${String(face.type)}, which is no question type`);
    }
    if (table.has(face.type)) throw new Error(`Two faces are given for the question type ${face.type}`);
    table.set(face.type, face);
  }
  const missing = QUESTION_TYPES.filter((type) => !table.has(type));
  if (missing.length > 0) throw new Error(`No face is given for the question types ${missing.join(', ')}`);
  return Object.freeze(Object.fromEntries(table) as Record<QuestionType, F>);
}

/**
 * Each type's face of one surface, read from its folder (`<kebab-name>/<face>.ts`, which exports
 * it as `face`) in the union's order: `load` requires the folder's file from the surface's table,
 * so no surface lists the types. A face's own type is checked at compile time outside src/
 * (tests/types/faces-own-type.ts, tests/apps/view-faces-fit.ts); faceTable checks the rest.
 */
export function facesFromFolders<F>(load: (folder: string) => unknown): F[] {
  return QUESTION_TYPES.map((type) => {
    const folder = type.replace(/_/g, '-');
    const loaded = load(folder) as { face?: F } | undefined;
    if (loaded?.face === undefined) throw new Error(`The folder ${folder} exports no face`);
    return loaded.face;
  });
}
