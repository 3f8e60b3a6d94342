// Titles that look alike in a list (`Quiz`, `Quiz\u200b`, `Ｑｕｉｚ`, `Quiz\u202e`): a reference
// resolves exactly as before when the exact or case-insensitive title finds a quiz; only when
// nothing does, a title equal in look-alike form (NFKC, invisible format characters dropped) is
// found, and several such are an ambiguity that names each. Other scripts stay distinct, and
// another user's quiz is never found. On SQLite and PostgreSQL.
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, errorText, payload, type AnyClient } from '../helpers/mcp-clients';

describeEachDatabase('look-alike titles', (provider) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ provider });
  });
  afterAll(async () => {
    await app.close();
  });

  async function ownerWith(...titles: string[]): Promise<{ client: AnyClient; ids: string[] }> {
    const user = await createTestUser(app, 'alike');
    const client = await connectClient(app, user.apiKey);
    const ids: string[] = [];
    for (const title of titles) {
      ids.push(payload(await callTool(client, 'create_quiz', { title, questions: [] })).quiz_id);
    }
    return { client, ids };
  }
  const resolve = async (client: AnyClient, ref: string) =>
    callTool(client, 'get_quiz_settings', { quiz_id: ref });

  test('an exact or case-insensitive match wins over every look-alike, as before', async () => {
    const { client, ids } = await ownerWith('Quiz\u200b', 'Ｑｕｉｚ', 'Quiz', 'Quiz\u202e', 'Quіz');
    try {
      expect(payload(await resolve(client, 'Quiz')).quiz_id).toBe(ids[2]);
      expect(payload(await resolve(client, 'QUIZ')).quiz_id).toBe(ids[2]);
      expect(payload(await resolve(client, 'Ｑｕｉｚ')).quiz_id).toBe(ids[1]);
    } finally {
      await client.close();
    }
  });

  test.each([
    ['a zero-width space', 'Quiz\u200b'],
    ['full-width letters', 'Ｑｕｉｚ'],
    ['a bidi override', 'Quiz\u202e'],
    ['a soft hyphen and doubled spaces', 'My  Qu\u00adiz'],
  ])('with no plain match, a title differing by %s is found', async (_what, stored) => {
    const { client, ids } = await ownerWith(stored, 'Something else');
    try {
      const ref = stored.includes('My') ? 'my quiz' : 'quiz';
      expect(payload(await resolve(client, ref)).quiz_id).toBe(ids[0]);
    } finally {
      await client.close();
    }
  });

  test('several look-alikes and no plain match: an ambiguity naming each id and slug', async () => {
    const { client, ids } = await ownerWith('Quiz\u200b', 'Ｑｕｉｚ');
    try {
      const text = errorText(await resolve(client, 'Quiz'));
      expect(text).toMatch(/matches 2 of your quizzes/);
      for (const id of ids) expect(text).toContain(`quiz_id ${id}`);
    } finally {
      await client.close();
    }
  });

  test('a title in another script is different text: not found', async () => {
    const { client } = await ownerWith('Quіz');
    try {
      expect(errorText(await resolve(client, 'Quiz'))).toMatch(/No quiz that you own matches "Quiz"/);
    } finally {
      await client.close();
    }
  });

  test("another user's look-alike is never found", async () => {
    const { client: other } = await ownerWith('Quiz\u200b');
    await other.close();
    const { client } = await ownerWith('Unrelated');
    try {
      expect(errorText(await resolve(client, 'Quiz'))).toMatch(/No quiz that you own matches/);
    } finally {
      await client.close();
    }
  });
});
