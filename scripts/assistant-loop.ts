/**
 * A teacher's whole loop, played as an assistant plays it through the v2 MCP client: a lesson
 * becomes a ten-question quiz, published; 30 students take it (through the public JSON route,
 * not counted as the assistant's); the essays are graded with a rubric and approved; a wrong key
 * is fixed, the past responses re-marked and a weak question reworded; then who is below 50 %,
 * the CSV, next year's copy and the quiz closed. Every call is counted against its step: calls,
 * bytes of arguments sent, bytes of text returned to the model. What an elicitation shows the
 * teacher is the client's, not the model's, and is counted apart.
 *
 * Each step uses what the connection lists, the lean arguments first (`reply: "brief"`,
 * `publish`, `ask_person`, `csv_link`, `close_original`); where one is not listed the step falls
 * back to what is and says so. `npm run bench:assistant` prints it; tests/mcp/assistant-loop
 * holds its budgets.
 */

/** The few calls the loop makes of an MCP client (the v2 Client has them). */
export interface LoopClient {
  listTools(): Promise<{
    tools: Array<{ name: string; inputSchema: { properties?: Record<string, unknown> } }>;
  }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

export interface StepTally {
  step: string;
  calls: number;
  sent: number;
  returned: number;
  notes: string[];
}

export interface LoopResult {
  steps: StepTally[];
  /** What the connection's tools/list and instructions cost before the first call. */
  connection: { tools: number; listed_bytes: number };
  quiz: { quiz_id: string; slug: string; question_ids: string[] };
  copy_quiz_id: string | null;
  /** The CSV's data rows, one per response. */
  csv_rows: number;
  below_half: number;
  /** What the approval showed the teacher (not the model's), when it went through the client. */
  shown_to_teacher_bytes: number;
}

export const CLASS_SIZE = 30;
/** The class's essays run from this many words to the next. */
export const ESSAY_WORDS = { min: 19, max: 134 } as const;

type Args = Record<string, unknown>;
type ToolText = { content?: Array<{ type: string; text?: string }>; isError?: boolean };

const WORDS =
  'light energy splits water in the thylakoid releasing oxygen while the Calvin cycle fixes carbon dioxide into sugar using ATP and NADPH made by the light reactions chlorophyll absorbs red and blue light'.split(
    ' ',
  );

/** Student `n`'s essay: from ESSAY_WORDS.min to ESSAY_WORDS.max words across the class. */
export function essayOf(n: number): string {
  const count = Math.round(ESSAY_WORDS.min + ((ESSAY_WORDS.max - ESSAY_WORDS.min) * n) / (CLASS_SIZE - 1));
  return Array.from({ length: count }, (_, i) => WORDS[(i + n) % WORDS.length]).join(' ');
}

/** The lesson as ten questions. Question 3's key marks the wrong option, and question 5 is worded badly. */
export function lessonQuestions(): Args[] {
  const choice = (text: string, labels: string[], right: number) => ({
    type: 'multiple_choice',
    text,
    options: labels.map((label, i) => ({ label, score: i === right ? 1 : 0 })),
  });
  return [
    { type: 'yes_no', text: 'Do plants release oxygen during photosynthesis?', correct_answer: 'yes' },
    choice(
      'Where do the light reactions happen?',
      ['Thylakoid membranes', 'Stroma', 'Nucleus', 'Cell wall'],
      0,
    ),
    // The teacher's slip: the key marks the light reactions; the Calvin cycle fixes carbon dioxide.
    choice('Which stage fixes carbon dioxide?', ['The light reactions', 'The Calvin cycle', 'Glycolysis'], 0),
    { type: 'number', text: 'How many molecules of CO2 make one glucose?', correct_number: 6 },
    {
      type: 'yes_no',
      text: 'Is it not untrue that chlorophyll does not absorb green light well?',
      correct_answer: 'yes',
    },
    {
      type: 'short_text',
      text: 'Name the pigment that makes leaves green.',
      accepted_answers: ['chlorophyll'],
    },
    choice('What does the Calvin cycle make?', ['Sugar', 'Oxygen', 'Water'], 0),
    { type: 'yes_no', text: 'Do the light reactions make ATP?', correct_answer: 'yes' },
    choice('Which gas do plants take in?', ['Carbon dioxide', 'Nitrogen', 'Helium'], 0),
    {
      type: 'essay',
      text: 'Explain how the light reactions and the Calvin cycle depend on each other.',
      rubric: [
        {
          criterion: 'Links the stages',
          levels: [
            { label: 'missing', points: 0 },
            { label: 'partly', points: 1 },
            { label: 'clearly', points: 2 },
          ],
        },
        {
          criterion: 'Uses the right terms',
          levels: [
            { label: 'none', points: 0 },
            { label: 'some', points: 2 },
            { label: 'all', points: 4 },
          ],
        },
      ],
    },
  ];
}

/** Student `n`'s answers: most get question 3 right (against its wrong key), a third trip on question 5. */
export function answersOf(n: number, questionIds: readonly string[]): Args[] {
  const id = (i: number) => questionIds[i]!;
  const weak = n % 4 === 0;
  return [
    { question_id: id(0), answer: weak ? 'no' : 'yes' },
    { question_id: id(1), option_index: weak ? 1 : 0 },
    { question_id: id(2), option_index: n % 5 === 0 ? 0 : 1 },
    { question_id: id(3), number: weak ? 3 : 6 },
    { question_id: id(4), answer: n % 3 === 0 ? 'no' : 'yes' },
    { question_id: id(5), text: weak ? 'carotene' : 'chlorophyll' },
    { question_id: id(6), option_index: weak ? 2 : 0 },
    { question_id: id(7), answer: weak ? 'no' : 'yes' },
    { question_id: id(8), option_index: weak ? 1 : 0 },
    { question_id: id(9), text: essayOf(n) },
  ];
}

/** Posts the class's 30 submissions through the public JSON route, each through its timed attempt. */
export async function seedClass(
  baseUrl: string,
  slug: string,
  questionIds: readonly string[],
): Promise<void> {
  const post = async (path: string, body: Args) => {
    const res = await fetch(`${baseUrl}/api/quizzes/${slug}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Args;
  };
  for (let n = 0; n < CLASS_SIZE; n += 1) {
    const { attempt_token } = await post('attempts', {});
    await post('responses', {
      attempt_token,
      respondent: { name: `Student ${n + 1}` },
      answers: answersOf(n, questionIds),
    });
  }
}

/** The assistant: every call counted against the step under way. */
class Assistant {
  private tally: StepTally = { step: '', calls: 0, sent: 0, returned: 0, notes: [] };
  private readonly listed = new Map<string, Set<string>>();
  readonly steps: StepTally[] = [];

  constructor(private readonly client: LoopClient) {}

  async load(): Promise<{ tools: number; listed_bytes: number }> {
    const { tools } = await this.client.listTools();
    for (const tool of tools)
      this.listed.set(tool.name, new Set(Object.keys(tool.inputSchema.properties ?? {})));
    const modelPart = tools.map(({ outputSchema: _output, ...rest }: Record<string, unknown>) => rest);
    return { tools: tools.length, listed_bytes: Buffer.byteLength(JSON.stringify(modelPart)) };
  }

  /** Whether the connection lists `tool` (and its `argument`). */
  has(tool: string, argument?: string): boolean {
    const args = this.listed.get(tool);
    return args !== undefined && (argument === undefined || args.has(argument));
  }

  /** `args` with each lean argument the tool lists; a note for each it does not. */
  lean(tool: string, args: Args, extras: Args): Args {
    const out = { ...args };
    for (const [name, value] of Object.entries(extras)) {
      if (this.has(tool, name)) out[name] = value;
      else this.note(`${tool} lists no ${name}`);
    }
    return out;
  }

  note(text: string): void {
    this.tally.notes.push(text);
  }

  async call(name: string, args: Args): Promise<any> {
    const result = (await this.client.callTool({ name, arguments: args })) as ToolText;
    this.tally.calls += 1;
    this.tally.sent += Buffer.byteLength(JSON.stringify(args));
    for (const item of result.content ?? []) {
      if (item.type === 'text') this.tally.returned += Buffer.byteLength(item.text ?? '');
    }
    const text = result.content?.find((item) => item.type === 'text')?.text ?? '';
    if (result.isError) throw new Error(`${name}: ${text.slice(0, 400)}`);
    return JSON.parse(text);
  }

  async step<T>(name: string, run: () => Promise<T>): Promise<T> {
    this.tally = { step: name, calls: 0, sent: 0, returned: 0, notes: [] };
    const value = await run();
    this.steps.push(this.tally);
    return value;
  }
}

export interface LoopOptions {
  baseUrl: string;
  /** Bytes the client showed the teacher in an approval, when the server asked through one. */
  shownToTeacher?: () => number;
  /** Run between the grading and the fix, outside the tally (a test reads what must not be lost). */
  beforeFix?: (quiz: LoopResult['quiz']) => Promise<void>;
}

/** The levels the `n`th essay earns: an index per criterion, 0 first. */
const levelsOf = (n: number) => [n % 3, (n + 1) % 3];

/** Plays the loop on a connected client. */
export async function playLoop(client: LoopClient, options: LoopOptions): Promise<LoopResult> {
  const a = new Assistant(client);
  const connection = await a.load();

  const created = await a.step('lesson to a published quiz', async () => {
    const quiz = await a.call(
      'create_quiz',
      a.lean(
        'create_quiz',
        {
          title: 'Photosynthesis',
          questions: lessonQuestions(),
          settings: { time_limit_minutes: 20, pass_mark_percent: 50 },
        },
        { publish: true, reply: 'brief' },
      ),
    );
    if (quiz.status !== 'published') await a.call('publish_quiz', { quiz_id: quiz.quiz_id });
    return quiz;
  });
  const questionIds: string[] = (created.question_ids ??
    created.questions.map((q: any) => q.question_id)) as string[];
  const quiz = {
    quiz_id: created.quiz_id as string,
    slug: created.slug as string,
    question_ids: questionIds,
  };

  await seedClass(options.baseUrl, quiz.slug, questionIds);

  await a.step('grading and approval', async () => {
    const answers: any[] = [];
    let cursor: string | undefined;
    do {
      const page = await a.call(
        'get_answers_to_grade',
        a.lean(
          'get_answers_to_grade',
          { quiz_id: quiz.quiz_id, ...(cursor ? { cursor } : {}) },
          { reply: 'brief' },
        ),
      );
      // The brief page holds each question's answers under it; the full one, one list.
      answers.push(...(page.answers ?? page.questions.flatMap((question: any) => question.answers)));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    const grades = answers.map((answer, index) => ({
      answer_id: answer.answer_id,
      levels: levelsOf(index),
      feedback: 'You link the two stages; name where each happens.',
    }));
    const graded = await a.call(
      'grade_answers',
      a.lean('grade_answers', { grades }, { reply: 'brief', ask_person: true }),
    );
    if (!a.has('grade_answers', 'ask_person')) a.note('approved on the web: the client was not asked');
    return graded;
  });

  await options.beforeFix?.(quiz);
  await a.step('the key fix, re-marking and the rewording', async () => {
    const edited = await a.call(
      'edit_questions',
      a.lean(
        'edit_questions',
        {
          quiz_id: quiz.quiz_id,
          confirm_edit_published: true,
          remark_past_responses: true,
          operations: [
            {
              op: 'update',
              question_id: questionIds[2],
              options: [
                { label: 'The light reactions', score: 0 },
                { label: 'The Calvin cycle', score: 1 },
                { label: 'Glycolysis', score: 0 },
              ],
            },
            {
              op: 'update',
              question_id: questionIds[4],
              text: 'Does chlorophyll absorb green light poorly?',
            },
          ],
        },
        { reply: 'brief' },
      ),
    );
    if (!a.has('edit_questions', 'reply')) {
      a.note('no figures in the answer: read them from get_results');
      await a.call('get_results', { quiz_id: quiz.quiz_id, limit: 0 });
    }
    return edited;
  });

  const end = await a.step("below 50 %, the CSV, next year's copy and close", async () => {
    const below = await a.call(
      'get_results',
      a.lean(
        'get_results',
        {
          quiz_id: quiz.quiz_id,
          score_below: 50,
          order: 'score_asc',
          fields: ['respondent', 'percent'],
          include_statistics: false,
          limit: 100,
        },
        { csv_link: true },
      ),
    );
    const csvUrl: string =
      below.csv?.url ?? (await a.call('get_quiz_links', { quiz_id: quiz.quiz_id })).csv.url;
    const csv = await fetch(csvUrl);
    if (csv.status !== 200) throw new Error(`the CSV link answered ${csv.status}`);
    const rows = (await csv.text()).trim().split('\n').length - 1;
    const copy = await a.call(
      'duplicate_quiz',
      a.lean(
        'duplicate_quiz',
        { quiz_id: quiz.quiz_id, title: 'Photosynthesis 2027' },
        { close_original: true },
      ),
    );
    if (!copy.original_closed) await a.call('close_quiz', { quiz_id: quiz.quiz_id });
    return { below: below.responses.length as number, rows, copy: copy.quiz_id as string };
  });

  return {
    steps: a.steps,
    connection,
    quiz,
    copy_quiz_id: end.copy,
    csv_rows: end.rows,
    below_half: end.below,
    shown_to_teacher_bytes: options.shownToTeacher?.() ?? 0,
  };
}

/** The loop's figures as a table: per step, then the assistant's total. */
export function loopReport(result: LoopResult): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const total = result.steps.reduce(
    (sum, s) => ({
      calls: sum.calls + s.calls,
      sent: sum.sent + s.sent,
      returned: sum.returned + s.returned,
    }),
    { calls: 0, sent: 0, returned: 0 },
  );
  const widths = [46, 6, 10, 10];
  const line = (cells: string[]) =>
    cells
      .map((cell, i) =>
        i < widths.length ? (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)) : `  ${cell}`,
      )
      .join(' ');
  return [
    `connection: ${result.connection.tools} tools listed, ${kb(result.connection.listed_bytes)} handed to the model`,
    line(['step', 'calls', 'sent', 'returned', 'note']),
    ...result.steps.map((s) =>
      line([s.step, String(s.calls), kb(s.sent), kb(s.returned), s.notes.join('; ')]),
    ),
    line([
      'TOTAL (the assistant)',
      String(total.calls),
      kb(total.sent),
      kb(total.returned),
      `${total.returned} bytes`,
    ]),
    `shown to the teacher by the client (not counted): ${kb(result.shown_to_teacher_bytes)}`,
    `below 50 %: ${result.below_half}; CSV rows: ${result.csv_rows}`,
  ].join('\n');
}
