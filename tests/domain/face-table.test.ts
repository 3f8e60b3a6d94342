// A surface's table of faces (faceTable) holds one face per question type: a type left out or
// given twice fails when the surface's module loads, not when a page first asks for it.
import { faceTable } from '../../src/domain/question-types/face-table';
import { QUESTION_TYPES, type QuestionType } from '../../src/domain/question-types/names';

interface Face {
  type: QuestionType;
  says: string;
}
const faces: Face[] = QUESTION_TYPES.map((type) => ({ type, says: `the face of ${type}` }));

test('every type with one face: each is found by its type', () => {
  const table = faceTable(faces);
  for (const type of QUESTION_TYPES) expect(table[type].says).toBe(`the face of ${type}`);
  expect(Object.keys(table).sort()).toEqual([...QUESTION_TYPES].sort());
});

test('a type without a face is refused by name', () => {
  expect(() => faceTable(faces.filter((face) => face.type !== 'scale'))).toThrow(
    'No face is given for the question types scale',
  );
});

test('a type given two faces is refused by name', () => {
  expect(() => faceTable([...faces, { type: 'essay', says: 'another' }])).toThrow(
    'Two faces are given for the question type essay',
  );
});

test('a face of a name that is no type is refused', () => {
  expect(() => faceTable([...faces, { type: 'no_such_type' as QuestionType, says: 'not yet' }])).toThrow(
    'A face names no_such_type, which is no question type',
  );
});
