/**
 * npm run bench:assistant
 *
 * Twelve ordinary teacher requests, played through the MCP SDK client (v1, as most deployed
 * assistants run) against a fresh instance on a fresh SQLite database, each with the calls a
 * model would make from the tool descriptions alone, default arguments first. Prints, per task
 * and in total, the calls made, the bytes of arguments sent and the bytes of text returned. The
 * quiz of 10 questions gets 30 responses first (through the public JSON route, not counted); the
 * typo is fixed on a quiz of 100 questions. Where a tool or argument a task would use is not
 * served, the task falls back to what is, and the line says so.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freePort, startFlags, startProcess, stopProcess } from './bench-processes';
import { openDatabase } from '../src/db/database';
import { createApiKey } from '../src/domain/api-keys';
import { createUser } from '../src/domain/users';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');

interface Tally {
  calls: number;
  sent: number;
  returned: number;
  notes: string[];
}

type Args = Record<string, unknown>;
type Listed = { name: string; inputSchema: { properties?: Record<string, unknown> } };

/** The MCP side of the bench: every call counted against the task running. */
class Assistant {
  private tally: Tally = { calls: 0, sent: 0, returned: 0, notes: [] };
  private tools = new Map<string, Listed>();

  constructor(private readonly client: Client) {}

  async load(): Promise<void> {
    const { tools } = await this.client.listTools();
    for (const tool of tools) this.tools.set(tool.name, tool as Listed);
  }

  has(tool: string, argument?: string): boolean {
    const listed = this.tools.get(tool);
    if (!listed) return false;
    return argument === undefined || Object.keys(listed.inputSchema.properties ?? {}).includes(argument);
  }

  /** The first argument name of `tool` that matches `pattern`, if any. */
  argumentLike(tool: string, pattern: RegExp): string | undefined {
    return Object.keys(this.tools.get(tool)?.inputSchema.properties ?? {}).find((name) => pattern.test(name));
  }

  note(text: string): void {
    this.tally.notes.push(text);
  }

  /** A call; `refusalExpected` for one whose refusal is its answer (delete_quiz without confirm). */
  async call(name: string, args: Args, refusalExpected = false): Promise<any> {
    const result = (await this.client.callTool({ name, arguments: args })) as {
      content: Array<{ type: string; text?: string }>;
      isError?: boolean;
    };
    this.tally.calls += 1;
    this.tally.sent += Buffer.byteLength(JSON.stringify(args));
    for (const item of result.content) {
      if (item.type === 'text') this.tally.returned += Buffer.byteLength(item.text ?? '');
    }
    const text = result.content.find((item) => item.type === 'text')?.text ?? '';
    if (result.isError) {
      if (refusalExpected) return { refused: text };
      throw new Error(`${name}: ${text.slice(0, 300)}`);
    }
    return JSON.parse(text);
  }

  async task(name: string, run: () => Promise<void>): Promise<Tally & { name: string }> {
    this.tally = { calls: 0, sent: 0, returned: 0, notes: [] };
    await run();
    return { name, ...this.tally };
  }
}

function question(index: number) {
  return index % 2 === 0
    ? {
        type: 'yes_no',
        text: `Question ${index + 1}: is the statement about photosynthesis true?`,
        points: 1,
      }
    : {
        type: 'multiple_choice',
        text: `Question ${index + 1}: which of these best describes the light reactions?`,
        options: [
          { label: 'They make oxygen', score: 1 },
          { label: 'They fix carbon dioxide', score: 0 },
          { label: 'They happen at night', score: 0 },
          { label: 'They need no water', score: 0 },
        ],
        explanation: 'The light reactions split water and release oxygen.',
      };
}

/** The next Friday after `now`, 23:59, without an offset: as a teacher says "until Friday". */
function nextFriday(now: Date): string {
  const day = new Date(now);
  day.setUTCDate(day.getUTCDate() + ((5 - day.getUTCDay() + 7) % 7 || 7));
  return `${day.toISOString().slice(0, 10)}T23:59`;
}

async function seedResponses(baseUrl: string, slug: string, questions: any[], count: number) {
  for (let n = 0; n < count; n += 1) {
    const answers = questions.map((q: any, index: number) =>
      q.type === 'yes_no'
        ? { question_id: q.question_id, answer: (n + index) % 3 === 0 ? 'no' : 'yes' }
        : { question_id: q.question_id, option_index: (n * 7 + index) % 4 === 0 ? 0 : (n + index) % 4 },
    );
    const res = await fetch(`${baseUrl}/api/quizzes/${slug}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ respondent: { name: `Student ${n + 1}` }, answers }),
    });
    if (res.status !== 201) throw new Error(`seeding a response: ${res.status} ${await res.text()}`);
  }
}

/** Plays the twelve tasks against a running service; returns each task's tally. */
export async function playTasks(baseUrl: string, apiKey: string) {
  const client = new Client({ name: 'bench-assistant', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    }),
  );
  const a = new Assistant(client);
  await a.load();
  const results: Array<Tally & { name: string }> = [];
  let quiz: any;

  results.push(
    await a.task('create, publish and give the link', async () => {
      quiz = await a.call('create_quiz', {
        title: 'Photosynthesis',
        questions: Array.from({ length: 10 }, (_, i) => question(i)),
      });
      await a.call('publish_quiz', { quiz_id: quiz.quiz_id });
    }),
  );
  await seedResponses(baseUrl, quiz.slug, quiz.questions, 30);

  // The 100-question quiz, made outside any task.
  const big = await a.call('create_quiz', {
    title: 'Biology bank',
    questions: Array.from({ length: 100 }, (_, i) => question(i)),
  });
  await a.call('publish_quiz', { quiz_id: big.quiz_id });

  results.push(
    await a.task('fix a typo in question 3', async () => {
      if (a.has('edit_questions')) {
        const ranged = a.argumentLike('get_quiz_questions', /question_ids|from|range|positions?/);
        const read = await a.call('get_quiz_questions', {
          quiz_id: big.quiz_id,
          ...(ranged === 'question_ids' ? { question_ids: [big.questions[2].question_id] } : {}),
        });
        const q3 =
          read.questions.find((q: any) => q.question_id === big.questions[2].question_id) ??
          read.questions[0];
        await a.call('edit_questions', {
          quiz_id: big.quiz_id,
          confirm_edit_published: true,
          operations: [
            {
              op: 'update',
              question_id: q3.question_id,
              text: q3.text.replace('photosynthesis', 'photosynthesis.'),
            },
          ],
        });
      } else {
        a.note('no edit_questions: read all, send all back');
        const read = await a.call('get_quiz_questions', { quiz_id: big.quiz_id });
        read.questions[2].text = read.questions[2].text.replace('photosynthesis', 'photosynthesis.');
        await a.call('update_quiz', {
          quiz_id: big.quiz_id,
          questions: read.questions,
          confirm_edit_published: true,
        });
      }
    }),
  );

  results.push(
    await a.task('add two questions', async () => {
      const added = [question(10), question(11)];
      if (a.has('edit_questions')) {
        await a.call('edit_questions', {
          quiz_id: quiz.quiz_id,
          confirm_edit_published: true,
          operations: added.map((item) => ({ op: 'add', ...item })),
        });
      } else {
        a.note('no edit_questions: read all, send all back');
        const read = await a.call('get_quiz_questions', { quiz_id: quiz.quiz_id });
        await a.call('update_quiz', {
          quiz_id: quiz.quiz_id,
          questions: [...read.questions, ...added],
          confirm_edit_published: true,
        });
      }
    }),
  );

  results.push(
    await a.task('which questions were too hard', async () => {
      await a.call('get_results', { quiz_id: quiz.quiz_id, limit: 0 });
    }),
  );

  results.push(
    await a.task('who scored below 50%', async () => {
      const filter = a.argumentLike('get_results', /below|max_percent|score_below/);
      if (filter) {
        // Names and percents of every match, lowest first: no answers, no statistics.
        await a.call('get_results', {
          quiz_id: quiz.quiz_id,
          [filter]: 50,
          limit: 100,
          ...(a.has('get_results', 'order') ? { order: 'score_asc' } : {}),
          ...(a.has('get_results', 'fields')
            ? { fields: ['respondent', 'percent'] }
            : { include_answers: false }),
          ...(a.has('get_results', 'include_statistics') ? { include_statistics: false } : {}),
        });
      } else {
        a.note('no score filter: pages through every response');
        let cursor: string | undefined;
        do {
          const page = await a.call('get_results', {
            quiz_id: quiz.quiz_id,
            include_answers: false,
            limit: 100,
            ...(cursor ? { cursor } : {}),
          });
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
      }
    }),
  );

  results.push(
    await a.task('export as CSV', async () => {
      const links = await a.call('get_quiz_links', { quiz_id: quiz.quiz_id });
      const csv = await fetch(links.csv.url);
      if (csv.status !== 200) throw new Error(`the CSV link answered ${csv.status}`);
    }),
  );

  results.push(
    await a.task('close now', async () => {
      await a.call('close_quiz', { quiz_id: quiz.quiz_id });
    }),
  );

  results.push(
    await a.task('a Spanish version', async () => {
      const copy = await a.call('duplicate_quiz', {
        quiz_id: quiz.quiz_id,
        title: 'Fotosíntesis',
        language: 'es',
      });
      const read = await a.call('get_quiz_questions', { quiz_id: copy.quiz_id });
      const translate = (text: string) => `[es] ${text}`;
      if (a.has('edit_questions')) {
        await a.call('edit_questions', {
          quiz_id: copy.quiz_id,
          operations: read.questions.map((q: any) => ({
            op: 'update',
            question_id: q.question_id,
            text: translate(q.text),
            ...(q.options
              ? { options: q.options.map((o: any) => ({ ...o, label: translate(o.label) })) }
              : {}),
          })),
        });
      } else {
        a.note('no edit_questions: the whole quiz sent back translated');
        await a.call('update_quiz', {
          quiz_id: copy.quiz_id,
          questions: read.questions.map((q: any) => ({
            ...q,
            text: translate(q.text),
            ...(q.options
              ? { options: q.options.map((o: any) => ({ ...o, label: translate(o.label) })) }
              : {}),
          })),
        });
      }
    }),
  );

  let classCopy: any;
  results.push(
    await a.task('duplicate for another class', async () => {
      classCopy = await a.call('duplicate_quiz', { quiz_id: quiz.quiz_id, title: 'Photosynthesis, class B' });
    }),
  );

  results.push(
    await a.task('delete a draft', async () => {
      await a.call('delete_quiz', { quiz_id: classCopy.quiz_id }, true);
      await a.call('delete_quiz', { quiz_id: classCopy.quiz_id, confirm: true });
    }),
  );

  results.push(
    await a.task('show it as students see it', async () => {
      if (a.has('get_quiz_questions', 'view')) {
        await a.call('get_quiz_questions', { quiz_id: quiz.quiz_id, view: 'respondent' });
      } else {
        a.note('no view: "respondent": the preview link instead');
        await a.call('get_quiz_links', { quiz_id: quiz.quiz_id });
      }
    }),
  );

  results.push(
    await a.task('reopen until Friday', async () => {
      await a.call('reopen_quiz', { quiz_id: quiz.quiz_id, until: nextFriday(new Date()) });
    }),
  );

  await client.close();
  return results;
}

function report(results: Array<Tally & { name: string }>): void {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const rows = results.map((r) => [r.name, String(r.calls), kb(r.sent), kb(r.returned), r.notes.join('; ')]);
  const total = results.reduce(
    (sum, r) => ({
      calls: sum.calls + r.calls,
      sent: sum.sent + r.sent,
      returned: sum.returned + r.returned,
    }),
    {
      calls: 0,
      sent: 0,
      returned: 0,
    },
  );
  rows.push([
    'TOTAL',
    String(total.calls),
    kb(total.sent),
    kb(total.returned),
    `returned ${total.returned} bytes (target at most 40 KB)`,
  ]);
  const widths = [34, 6, 10, 10];
  const line = (cells: string[]) =>
    cells
      .map((cell, i) =>
        i < widths.length ? (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)) : `  ${cell}`,
      )
      .join(' ');
  console.log(line(['task', 'calls', 'sent', 'returned', 'note']));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-assistant-'));
  const databaseUrl = `file:${path.join(dir, 'bench.db')}`;
  const database = await openDatabase(databaseUrl, { migrate: true });
  const user = await createUser(database.repos, {
    email: `bench-${Date.now()}@example.com`,
    password: 'benchmark-password',
  });
  const { key } = await createApiKey(database.repos, user.id, 'bench');
  await database.close();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const service = await startProcess(
    [...startFlags(ROOT), MAIN],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: baseUrl,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: 'bench-assistant-session-secret-0123456789abcdef',
      SUBMISSIONS_PER_MINUTE: '100000',
      RATE_LIMIT_MAX: '100000',
      LOG_LEVEL: 'warn',
    },
    port,
  );
  try {
    report(await playTasks(baseUrl, key));
  } finally {
    await stopProcess(service);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
