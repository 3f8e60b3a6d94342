// A settings time without an offset (opens_at, closes_at in create_quiz and update_quiz) is read
// in the call's `timezone`, else the account's zone, and the answer gives it in UTC and local
// time; a time with an offset is taken as written, and the answer is as it always was. Accounts
// in America/Sao_Paulo (no daylight saving since 2019) and Asia/Tokyo, and a New York time on
// either side of the night its clocks go forward.
import { callTool, errorText, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  sampleQuestions,
  startTestApp,
  type TestApp,
} from '../helpers/test-app';

describeEachDatabase('settings times without an offset', (provider) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ provider });
  });
  afterAll(() => app.close());

  forEachEra((era) => {
    let saoPaulo: AnyClient;
    let tokyo: AnyClient;
    beforeAll(async () => {
      const a = await createTestUser(app, `sao-paulo-${era.era}`);
      const b = await createTestUser(app, `tokyo-${era.era}`);
      await app.database.repos.users.setTimeZone(a.id, 'America/Sao_Paulo');
      await app.database.repos.users.setTimeZone(b.id, 'Asia/Tokyo');
      saoPaulo = await era.connect(app, a.apiKey);
      tokyo = await era.connect(app, b.apiKey);
    });
    afterAll(async () => {
      await saoPaulo.close();
      await tokyo.close();
    });

    const call = async (client: AnyClient, tool: string, args: Record<string, unknown>) =>
      payload(await callTool(client, tool, args));
    const settingsOf = (client: AnyClient, quizId: string) =>
      call(client, 'get_quiz_settings', { quiz_id: quizId });

    test("create_quiz reads them in the account's zone and answers UTC and local time", async () => {
      const quiz = await call(saoPaulo, 'create_quiz', {
        title: 'Read in Sao Paulo',
        questions: sampleQuestions(),
        // January: summer, when Sao Paulo's clocks went forward until 2019.
        settings: { opens_at: '2099-01-15T09:00', closes_at: '2099-01-16T18:30' },
      });
      expect(quiz.times).toEqual([
        {
          field: 'opens_at',
          utc: '2099-01-15T12:00:00.000Z',
          local: '2099-01-15T09:00:00-03:00',
          time_zone: 'America/Sao_Paulo',
        },
        {
          field: 'closes_at',
          utc: '2099-01-16T21:30:00.000Z',
          local: '2099-01-16T18:30:00-03:00',
          time_zone: 'America/Sao_Paulo',
        },
      ]);
      expect(await settingsOf(saoPaulo, quiz.quiz_id)).toMatchObject({
        opens_at: '2099-01-15T12:00:00.000Z',
        closes_at: '2099-01-16T21:30:00.000Z',
      });

      const inTokyo = await call(tokyo, 'create_quiz', {
        title: 'Read in Tokyo',
        settings: { opens_at: '2099-03-08T08:00' },
      });
      // The day before, in UTC.
      expect(inTokyo.times).toEqual([
        {
          field: 'opens_at',
          utc: '2099-03-07T23:00:00.000Z',
          local: '2099-03-08T08:00:00+09:00',
          time_zone: 'Asia/Tokyo',
        },
      ]);
      expect(await settingsOf(tokyo, inTokyo.quiz_id)).toMatchObject({
        opens_at: '2099-03-07T23:00:00.000Z',
      });
    });

    test('the timezone argument wins over the account, across a daylight-saving change', async () => {
      // New York's clocks go from 02:00 to 03:00 on 2099-03-08: 09:00 is 14:00Z before, 13:00Z after.
      const quiz = await call(tokyo, 'create_quiz', {
        title: 'Read in New York',
        settings: { opens_at: '2099-03-07T09:00', closes_at: '2099-03-09T09:00' },
        timezone: 'America/New_York',
      });
      expect(quiz.times[0]).toEqual({
        field: 'opens_at',
        utc: '2099-03-07T14:00:00.000Z',
        local: '2099-03-07T09:00:00-05:00',
        time_zone: 'America/New_York',
      });
      expect(quiz.times[1]).toEqual({
        field: 'closes_at',
        utc: '2099-03-09T13:00:00.000Z',
        local: '2099-03-09T09:00:00-04:00',
        time_zone: 'America/New_York',
      });

      // A time the change skips is read with the offset before it, as calendars do: 02:30 is 03:30.
      const updated = await call(tokyo, 'update_quiz', {
        quiz_id: quiz.quiz_id,
        settings: { closes_at: '2099-03-08T02:30' },
        timezone: 'America/New_York',
      });
      expect(updated.times).toEqual([
        {
          field: 'closes_at',
          utc: '2099-03-08T07:30:00.000Z',
          local: '2099-03-08T03:30:00-04:00',
          time_zone: 'America/New_York',
        },
      ]);
      expect(await settingsOf(tokyo, quiz.quiz_id)).toMatchObject({
        opens_at: '2099-03-07T14:00:00.000Z',
        closes_at: '2099-03-08T07:30:00.000Z',
      });
    });

    test("update_quiz reads them in the account's zone; one time with an offset, one without", async () => {
      const quiz = await call(tokyo, 'create_quiz', { title: 'Updated in Tokyo' });
      const updated = await call(tokyo, 'update_quiz', {
        quiz_id: quiz.quiz_id,
        settings: { opens_at: '2099-06-01T09:00:00Z', closes_at: '2099-06-02T09:00' },
      });
      expect(updated.times).toEqual([
        {
          field: 'closes_at',
          utc: '2099-06-02T00:00:00.000Z',
          local: '2099-06-02T09:00:00+09:00',
          time_zone: 'Asia/Tokyo',
        },
      ]);
      expect(await settingsOf(tokyo, quiz.quiz_id)).toMatchObject({
        opens_at: '2099-06-01T09:00:00.000Z',
        closes_at: '2099-06-02T00:00:00.000Z',
      });
    });

    test('a time with an offset is taken as written, and the answer is as it always was', async () => {
      const quiz = await call(saoPaulo, 'create_quiz', {
        title: 'With offsets',
        settings: { opens_at: '2099-01-15T09:00:00+01:00', closes_at: null },
      });
      expect(quiz).not.toHaveProperty('times');
      expect(await settingsOf(saoPaulo, quiz.quiz_id)).toMatchObject({
        opens_at: '2099-01-15T08:00:00.000Z',
        closes_at: null,
      });
      const updated = await call(saoPaulo, 'update_quiz', {
        quiz_id: quiz.quiz_id,
        settings: { closes_at: '2099-01-16T08:00:00Z' },
      });
      expect(updated).not.toHaveProperty('times');
    });

    test('an unknown zone or an impossible time is a field error, and nothing is written', async () => {
      const quiz = await call(saoPaulo, 'create_quiz', { title: 'Kept as it was' });
      const wrongZone = errorText(
        await callTool(saoPaulo, 'update_quiz', {
          quiz_id: quiz.quiz_id,
          title: 'Changed',
          settings: { opens_at: '2099-01-15T09:00' },
          timezone: 'Mars/Base',
        }),
      );
      expect(wrongZone).toMatch(/timezone: "Mars\/Base" is not an IANA time zone/);
      const impossible = errorText(
        await callTool(saoPaulo, 'update_quiz', {
          quiz_id: quiz.quiz_id,
          title: 'Changed',
          settings: { closes_at: '2099-02-30T09:00' },
        }),
      );
      expect(impossible).toMatch(/closes_at/);
      expect(impossible).toMatch(/not a real date and time/);
      expect(await settingsOf(saoPaulo, quiz.quiz_id)).toMatchObject({
        title: 'Kept as it was',
        opens_at: null,
        closes_at: null,
      });
    });
  });
});
