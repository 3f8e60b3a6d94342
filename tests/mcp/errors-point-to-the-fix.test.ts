// A refused call says how to fix it: a question of one type sent another type's key is told how
// its own type marks the right answer (before, and instead of, what the flat schema says of the
// same field), an unknown field is answered with the closest real names at every level, and a
// quiz reference that matches nothing with the closest titles, only to a credential that may read.
import { connectApp, loggedInAgent } from '../oauth/oauth-helpers';
import { callTool, ERAS, errorText, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';

/** The "- field: message" lines of a refusal, in order. */
const issueLines = (text: string) => text.split('\n').filter((line) => line.startsWith('- '));

describe('errors that point to the fix', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  forEachEra((era) => {
    let client: AnyClient;
    let quizId: string;
    let questionId: string;
    beforeAll(async () => {
      client = await era.connect(app, (await createTestUser(app, `fix-${era.era}`)).apiKey);
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Fractions for class 5B',
          questions: [{ type: 'yes_no', text: 'Is 1/2 more than 1/3?' }],
        }),
      );
      quizId = quiz.quiz_id;
      questionId = quiz.questions[0].question_id;
    });
    afterAll(() => client.close());

    const refusal = async (name: string, args: Record<string, unknown>) => {
      const text = errorText(await callTool(client, name, args));
      expect(text).toMatch(/nothing was changed/);
      return issueLines(text);
    };

    test('a multiple_choice question sent with correct_answer is told to mark its right option with options[].score', async () => {
      const lines = await refusal('create_quiz', {
        title: 'Capitals',
        questions: [
          {
            type: 'multiple_choice',
            text: 'Capital of Italy?',
            correct_answer: 'Rome',
            options: [{ label: 'Rome' }, { label: 'Milan' }],
          },
        ],
      });
      expect(lines).toEqual([
        '- questions[0].correct_answer: a multiple_choice question takes no correct_answer (only yes_no): remove it; ' +
          'a multiple_choice question marks its right option with options[].score, e.g. options: [{"label": "Rome", "score": 1}, {"label": "Milan", "score": 0}]',
      ]);
    });

    test('options sent as strings are told the same, once, before the generic issues', async () => {
      const lines = await refusal('create_quiz', {
        title: 'Capitals',
        questions: [{ type: 'multiple_choice', text: '', options: ['Rome', 'Milan'] }],
      });
      expect(lines).toEqual([
        '- questions[0].options: each option is an object { label, score }, not a string: ' +
          'a multiple_choice question marks its right option with options[].score, e.g. options: [{"label": "Rome", "score": 1}, {"label": "Milan", "score": 0}]',
        // The schema's own issue of another field still comes, after it.
        '- questions[0].text: text must not be empty',
      ]);
    });

    test('a multiple_select question is told how it marks right and wrong options', async () => {
      const lines = await refusal('create_quiz', {
        title: 'Primes',
        questions: [
          { type: 'multiple_select', text: 'Primes?', correct_answer: ['2', '3'], options: ['2', '3', '4'] },
        ],
      });
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(line).toContain(
          'a multiple_select question marks each right option with a positive options[].score and each wrong one with a negative score, e.g. options: [',
        );
      }
      expect(lines.join('\n')).not.toMatch(/must be "yes" or "no"|expected object/);
    });

    test('edit_questions finds the same misfits in an add operation', async () => {
      const lines = await refusal('edit_questions', {
        quiz_id: quizId,
        operations: [
          {
            op: 'add',
            type: 'multiple_choice',
            text: 'Half of 1?',
            correct_answer: '1/2',
            options: ['1/2', '2'],
          },
        ],
      });
      expect(lines.map((line) => line.split(':')[0])).toEqual([
        '- operations[0].correct_answer',
        '- operations[0].options',
      ]);
      expect(lines.join('\n')).toContain('marks its right option with options[].score');
    });

    test.each([
      [
        'quiz',
        { title: 'T', descripton: 'x' },
        '- descripton: is not a known field: did you mean `description`?',
      ],
      [
        'question',
        { title: 'T', questions: [{ type: 'yes_no', text: 'Q?', explaination: 'x' }] },
        '- questions[0].explaination: is not a known field: did you mean `explanation`?',
      ],
      [
        'option',
        {
          title: 'T',
          questions: [
            { type: 'multiple_choice', text: 'Q?', options: [{ label: 'a', scor: 1 }, { label: 'b' }] },
          ],
        },
        '- questions[0].options[0].scor: is not a known field: did you mean `score`?',
      ],
      [
        'settings',
        { title: 'T', settings: { colect_email: true } },
        '- settings.colect_email: is not a known field: did you mean `collect_email`?',
      ],
    ])('an unknown %s field in create_quiz answers with the closest real one', async (_level, args, line) => {
      expect(await refusal('create_quiz', args)).toEqual([line]);
    });

    test('an unknown field of an edit operation, or of the call, answers with the closest real one', async () => {
      expect(
        await refusal('edit_questions', {
          quiz_id: quizId,
          confirm_edit: true,
          operations: [{ op: 'update', question_id: questionId, txt: 'Is 1/2 bigger than 1/3?' }],
        }),
      ).toEqual([
        '- operations[0].txt: is not a known field: did you mean `text`?',
        '- confirm_edit: is not a known field: did you mean `confirm_edit_published`?',
      ]);
    });

    test("a question's closest names are its own type's: a wrong key name is told how its type marks the answer", async () => {
      const [line] = await refusal('create_quiz', {
        title: 'T',
        questions: [
          {
            type: 'multiple_choice',
            text: 'Q?',
            correct_option: 0,
            options: [{ label: 'a' }, { label: 'b' }],
          },
        ],
      });
      expect(line).toBe(
        '- questions[0].correct_option: is not a known field: remove it; a multiple_choice question marks its right option with options[].score, e.g. options: [{"label": "Rome", "score": 1}, {"label": "Milan", "score": 0}]',
      );
      const [yesNo] = await refusal('create_quiz', {
        title: 'T',
        questions: [{ type: 'yes_no', text: 'Q?', answer: 'no' }],
      });
      expect(yesNo).toBe('- questions[0].answer: is not a known field: did you mean `correct_answer`?');
    });

    test('a name close to nothing is still told to remove it', async () => {
      expect(await refusal('create_quiz', { title: 'T', colour: 'red' })).toEqual([
        '- colour: is not a known field: remove it (check the spelling against the tool schema)',
      ]);
    });

    test('a quiz title that matches none answers with the closest titles', async () => {
      const text = errorText(
        await callTool(client, 'get_quiz_settings', { quiz_id: 'Fractions for clas 5B' }),
      );
      expect(text).toContain('No quiz that you own matches "Fractions for clas 5B"');
      expect(text).toContain(`The closest titles: "Fractions for class 5B" (quiz_id ${quizId}).`);
      const far = errorText(await callTool(client, 'get_quiz_settings', { quiz_id: 'Volcanoes of Iceland' }));
      expect(far).not.toContain('closest');
    });
  });

  test('a credential that may only write is never told titles', async () => {
    const { agent } = await loggedInAgent(app, 'fix-writer');
    const writer = (await connectApp(app, agent, { scope: 'quizzes:write' })).tokens.access_token;
    const reader = (await connectApp(app, agent)).tokens.access_token;
    for (const { era, connect } of ERAS) {
      const asWriter = await connect(app, writer);
      const asReader = await connect(app, reader);
      try {
        const made = payload(
          await callTool(asWriter, 'create_quiz', {
            title: `Secret plans ${era}`,
            questions: [{ type: 'yes_no', text: 'Q?' }],
          }),
        );
        const wrong = { quiz_id: `Secret plan ${era}`, confirm: true };
        const writerText = errorText(await callTool(asWriter, 'delete_quiz', wrong));
        expect(writerText).toContain('No quiz that you own matches');
        expect(writerText).not.toContain('Secret plans');
        expect(writerText).not.toContain(made.quiz_id);
        const readerText = errorText(await callTool(asReader, 'delete_quiz', wrong));
        expect(readerText).toContain(`"Secret plans ${era}" (quiz_id ${made.quiz_id})`);
      } finally {
        await Promise.all([asWriter.close(), asReader.close()]);
      }
    }
  });
});
