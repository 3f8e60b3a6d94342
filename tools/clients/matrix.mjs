// The client matrix: a quiz's life cycle driven through the MCP clients of the AI frameworks
// people build assistants with, each through its OWN tool wrappers (the objects a model's tool
// calls go through, with their schema conversion and validation), not through a bare MCP call:
//
//   ai-sdk     Vercel AI SDK's @ai-sdk/mcp: client.tools(), then each tool's execute()
//   langchain  @langchain/mcp-adapters: MultiServerMCPClient.getTools(), then tool.invoke()
//   mastra     @mastra/mcp: MCPClient.listTools(), then tool.execute() (Mastra validates input)
//   mcp-use    mcp-use's MCPClient session and its LangChainAdapter (what MCPAgent hands a model)
//
// Usage: node matrix.mjs --url <.../api/mcp> --fixture <quiz.json> --response <response.json>
//        [--clients a,b] [--types yes_no,...] [--gift <bank.gift>] [--pause-before-delete]
//        (the API key comes from QUIZ_API_KEY; the response is what one respondent answers once
//        the quiz is published, each answer naming its question by type, and the two grades its
//        essay gets with grade_answers, plain then brief; with --gift each client also imports the
//        GIFT bank with import_questions, a dry run first, then for real)
// Prints one JSON line per client: {"client", "ok", "steps": {...}} or {"client", "ok": false,
// "step", "error"}. With --pause-before-delete it also prints {"client", "phase":
// "before-delete", "quiz_id"} and waits for a line on stdin, so a caller can read the database.
import fs from 'node:fs';
import readline from 'node:readline';
import { parseArgs } from 'node:util';

const { values: options } = parseArgs({
  options: {
    url: { type: 'string' },
    fixture: { type: 'string' },
    response: { type: 'string' },
    clients: { type: 'string', default: 'ai-sdk,langchain,mastra,mcp-use' },
    types: { type: 'string' },
    gift: { type: 'string' },
    'pause-before-delete': { type: 'boolean', default: false },
  },
});
// mcp-use 1.x reports anonymous usage unless told not to; a test run reports nothing.
process.env.MCP_USE_ANONYMIZED_TELEMETRY ??= 'false';
const apiKey = process.env.QUIZ_API_KEY;
if (!options.url || !options.fixture || !options.response || !apiKey) {
  console.error(
    'usage: QUIZ_API_KEY=... node matrix.mjs --url <mcp url> --fixture <quiz.json> --response <response.json>',
  );
  process.exit(2);
}
// The tools of the default list are called through a connection to the URL as given, the others
// through one that adds their toolsets (a framework wraps only the tools a connection lists).
const TOOLSETS_URL = `${options.url}${options.url.includes('?') ? '&' : '?'}toolsets=grading,import`;
const headers = { Authorization: `Bearer ${apiKey}` };
const fixture = JSON.parse(fs.readFileSync(options.fixture, 'utf8'));
const response = JSON.parse(fs.readFileSync(options.response, 'utf8'));
// Respondents answer through the public JSON routes, beside the MCP endpoint.
const ATTEMPTS_URL = (slug) => new URL(`/api/quizzes/${slug}/attempts`, options.url).href;
const giftBank = options.gift ? fs.readFileSync(options.gift, 'utf8') : undefined;
// --types keeps only the fixture's questions of these types (for a service that lacks some).
if (options.types) {
  const kept = options.types.split(',');
  fixture.questions = fixture.questions.filter((question) => kept.includes(question.type));
}

/** A tool result as each framework hands it back, read as the quiz service's JSON payload. */
function payloadOf(result) {
  if (typeof result === 'string') {
    // mcp-use's LangChain tools answer with the whole CallToolResult as JSON text.
    const parsed = JSON.parse(result);
    return Array.isArray(parsed?.content) ? payloadOf(parsed) : parsed;
  }
  if (Array.isArray(result)) return payloadOf(result.find((block) => block.type === 'text')?.text ?? '');
  if (result && typeof result === 'object') {
    if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
    if (result.structuredContent) return result.structuredContent;
    if (Array.isArray(result.content)) return payloadOf(result.content);
    return result;
  }
  throw new Error(`unreadable tool result: ${JSON.stringify(result)}`);
}

/** Each client: connects and returns { call(name, args) -> payload, close() }. */
const CLIENTS = {
  async 'ai-sdk'(url) {
    const { createMCPClient } = await import('@ai-sdk/mcp');
    const client = await createMCPClient({ transport: { type: 'http', url, headers } });
    const tools = await client.tools();
    let callId = 0;
    return {
      has: (name) => name in tools,
      call: async (name, args) =>
        payloadOf(await tools[name].execute(args, { toolCallId: `call-${++callId}`, messages: [] })),
      close: () => client.close(),
    };
  },

  async langchain(url) {
    const { MultiServerMCPClient } = await import('@langchain/mcp-adapters');
    const client = new MultiServerMCPClient({
      // The service speaks Streamable HTTP only: on any 4xx the adapter would otherwise retry over
      // SSE, and report that retry's failure in place of the first answer.
      mcpServers: { quiz: { transport: 'http', url, headers, automaticSSEFallback: false } },
      prefixToolNameWithServerName: false,
      throwOnLoadError: true,
    });
    const tools = Object.fromEntries((await client.getTools()).map((tool) => [tool.name, tool]));
    return {
      has: (name) => name in tools,
      call: async (name, args) => payloadOf(await tools[name].invoke(args)),
      close: () => client.close(),
    };
  },

  async mastra(url) {
    const { MCPClient } = await import('@mastra/mcp');
    const client = new MCPClient({
      id: `quiz-matrix-${process.pid}-${url === TOOLSETS_URL ? 'toolsets' : 'default'}`,
      servers: { quiz: { url: new URL(url), requestInit: { headers } } },
    });
    const tools = await client.listTools();
    return {
      has: (name) => `quiz_${name}` in tools,
      call: async (name, args) => {
        const result = await tools[`quiz_${name}`].execute(args, {});
        // Mastra answers a refused input with { error: true, message } instead of throwing.
        if (result?.error === true) throw new Error(`mastra: ${result.message}`);
        return payloadOf(result);
      },
      close: () => client.disconnect(),
    };
  },

  async 'mcp-use'(url) {
    const { MCPClient } = await import('mcp-use');
    const { LangChainAdapter } = await import('mcp-use/adapters');
    const client = MCPClient.fromDict({ mcpServers: { quiz: { url, headers } } });
    const session = await client.createSession('quiz');
    const list = await new LangChainAdapter().createToolsFromConnectors([session.connector]);
    const tools = Object.fromEntries(list.map((tool) => [tool.name, tool]));
    return {
      has: (name) => name in tools,
      call: async (name, args) => payloadOf(await tools[name].invoke(args)),
      close: () => client.closeAllSessions(),
    };
  },
};

const stdinLines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();

/** POSTs JSON to the public route, with no credential; its answer, or an error unless 201. */
async function postJson(url, body) {
  const sent = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await sent.json();
  if (sent.status !== 201) throw new Error(`${url} answered ${sent.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * Submits the response's answers to the published quiz, each to the question of its type. The
 * calculated question draws its values per attempt, so the quiz is taken through one.
 */
async function respond(slug) {
  const attempt = await postJson(ATTEMPTS_URL(slug), {});
  const answers = response.answers
    .map(({ type, ...answer }) => ({
      question_id: attempt.questions.find((q) => q.type === type)?.question_id,
      ...answer,
    }))
    // An answer to a type --types left out has no question to go to.
    .filter((answer) => answer.question_id);
  return postJson(attempt.submit_url, {
    attempt_token: attempt.attempt_token,
    respondent: response.respondent,
    answers,
  });
}

/**
 * A refused input, then create -> read -> edit_questions -> a range as respondents see it -> update
 * keeping every question_id -> get_quiz_settings -> publish -> one response through the public
 * route -> get_results, and filtered -> get_answers_to_grade -> grade_answers, plain then brief ->
 * list_quizzes by status and title -> get_quiz_links -> close -> reopen -> duplicate (the copy
 * deleted) -> delete.
 */
async function lifeCycle(name, client) {
  const steps = {};
  let step = 'refused_input';
  try {
    // A per-type rule the schema cannot express: the service's field error must reach the caller
    // through the wrapper, and nothing is created.
    try {
      await client.call('create_quiz', {
        title: `Refused (${name})`,
        questions: [
          { type: 'multiple_choice', text: 'Only one option?', options: [{ label: 'Only', score: 1 }] },
        ],
      });
      steps.refused_input = { refused: false };
    } catch (error) {
      steps.refused_input = { refused: true, message: String(error?.message ?? error) };
    }

    step = 'create_quiz';
    const created = await client.call('create_quiz', { ...fixture, title: `${fixture.title} (${name})` });
    steps.create_quiz = {
      quiz_id: created.quiz_id,
      status: created.status,
      types: created.questions.map((q) => q.type),
    };
    const quizId = created.quiz_id;

    step = 'get_quiz_questions';
    const read = await client.call('get_quiz_questions', { quiz_id: quizId });
    steps.get_quiz_questions = { questions: read.questions };

    step = 'edit_questions';
    const edited = await client.call('edit_questions', {
      quiz_id: quizId,
      operations: [
        {
          op: 'update',
          question_id: read.questions[0].question_id,
          text: `${read.questions[0].text} (draft)`,
        },
      ],
    });
    steps.edit_questions = { changes: edited.changes.map((change) => ({ op: change.op, id: change.id })) };

    step = 'get_quiz_questions (a range, as respondents see it)';
    const few = await client.call('get_quiz_questions', {
      quiz_id: quizId,
      from: 1,
      to: 2,
      view: 'respondent',
    });
    steps.few_questions = {
      positions: few.questions.map((q) => q.position),
      keys: few.questions.some((q) => 'correct_answer' in q || 'points' in q || 'explanation' in q),
    };

    step = 'update_quiz';
    // Every question sent back with its id and a reworded text: each keeps its id.
    const questions = read.questions.map((question, index) => ({
      ...fixture.questions[index],
      question_id: question.question_id,
      text: `${fixture.questions[index].text} (edited)`,
    }));
    // A closing time without an offset, read in the timezone named (tool set 1.12.0).
    const updated = await client.call('update_quiz', {
      quiz_id: quizId,
      questions,
      settings: { closes_at: '2099-01-01T09:00' },
      timezone: 'Asia/Tokyo',
    });
    steps.update_quiz = {
      question_ids: updated.questions.map((q) => q.question_id),
      texts: updated.questions.map((q) => q.text),
      times: updated.times,
    };

    step = 'get_quiz_settings';
    const settings = await client.call('get_quiz_settings', { quiz_id: quizId });
    steps.get_quiz_settings = {
      status: settings.status,
      question_count: settings.question_count,
      closes_at: settings.closes_at,
    };

    step = 'publish_quiz';
    const published = await client.call('publish_quiz', { quiz_id: quizId });
    steps.publish_quiz = { status: published.status, public_url: published.public_url };

    step = 'a response (POST /api/quizzes/{slug}/attempts, then .../responses)';
    const submitted = await respond(created.slug);
    steps.response = {
      score: submitted.score,
      max_score: submitted.max_score,
      grading_status: submitted.grading_status,
    };

    step = 'get_results';
    const results = await client.call('get_results', { quiz_id: quizId });
    steps.get_results = { summary: results.summary ?? null, responses: results.responses?.length ?? null };

    step = 'get_results (filtered)';
    const filtered = await client.call('get_results', {
      quiz_id: quizId,
      score_below: 50,
      order: 'score_asc',
      fields: ['percent'],
      include_statistics: false,
    });
    steps.get_results_filtered = {
      matching: filtered.matching?.count ?? null,
      statistics: 'questions' in filtered,
    };

    step = 'get_answers_to_grade';
    const waiting = await client.call('get_answers_to_grade', { quiz_id: quizId });
    steps.get_answers_to_grade = {
      answers: waiting.answers.map((answer) => ({
        question_type: read.questions.find((q) => q.question_id === answer.question_id)?.type,
        student_text: answer.student_text,
        grade_state: answer.grade_state,
      })),
    };
    const essay = waiting.answers[0];
    if (!essay) throw new Error('no answer to grade: the quiz needs its essay (see --types)');

    step = 'grade_answers';
    const [first, second] = response.grades;
    // The answer's id differs per client; what each must agree on is that it is the essay's.
    const named = (id) => (id === essay.answer_id ? 'the essay' : id);
    const graded = await client.call('grade_answers', { grades: [{ answer_id: essay.answer_id, ...first }] });
    steps.grade_answers = {
      grades: graded.grades.map((grade) => ({
        answer_id: named(grade.answer_id),
        stored: grade.stored,
        points: grade.points,
        max_points: grade.max_points,
        levels: grade.levels,
        feedback: grade.feedback,
      })),
      warnings: graded.warnings ?? null,
    };

    step = 'grade_answers (brief)';
    const brief = await client.call('grade_answers', {
      grades: [{ answer_id: essay.answer_id, ...second }],
      reply: 'brief',
    });
    steps.grade_answers_brief = {
      counts: brief.counts,
      grades: brief.grades.map((grade) => ({ ...grade, answer_id: named(grade.answer_id) })),
    };

    step = 'list_quizzes';
    const listed = await client.call('list_quizzes', {
      status: 'published',
      search: `${fixture.title} (${name})`,
    });
    steps.list_quizzes = { titles: listed.quizzes.map((quiz) => quiz.title) };

    step = 'get_quiz_links';
    const links = await client.call('get_quiz_links', { quiz_id: quizId });
    steps.get_quiz_links = {
      public_url: links.public_url,
      csv: links.csv?.url ?? null,
      preview: links.preview?.url ?? null,
    };

    step = 'close_quiz';
    const closed = await client.call('close_quiz', { quiz_id: quizId });
    steps.close_quiz = { is_open: closed.is_open };

    step = 'reopen_quiz';
    const reopened = await client.call('reopen_quiz', {
      quiz_id: quizId,
      until: '2099-01-01T09:00',
      timezone: 'Europe/Paris',
    });
    steps.reopen_quiz = { is_open: reopened.is_open, closes_at: reopened.closes_at };

    step = 'duplicate_quiz';
    const copy = await client.call('duplicate_quiz', { quiz_id: quizId, language: 'es' });
    steps.duplicate_quiz = { language: copy.language, question_count: copy.question_count };
    await client.call('delete_quiz', { quiz_id: copy.quiz_id, confirm: true });

    if (options['pause-before-delete']) {
      console.log(JSON.stringify({ client: name, phase: 'before-delete', quiz_id: quizId }));
      await stdinLines.next();
    }

    step = 'delete_quiz';
    const deleted = await client.call('delete_quiz', { quiz_id: quizId, confirm: true });
    steps.delete_quiz = deleted;

    if (giftBank) {
      step = 'import_questions (dry run)';
      const preview = await client.call('import_questions', { text: giftBank, dry_run: true });
      steps.import_preview = {
        format: preview.format,
        importable: preview.importable,
        not_importable: preview.not_importable,
        quizzes: preview.quizzes.length,
      };
      step = 'import_questions';
      const imported = await client.call('import_questions', {
        text: giftBank,
        title: `Imported (${name})`,
        skip_unusable: true,
      });
      steps.import_questions = {
        quizzes: imported.quizzes.map((quiz) => ({
          quiz_id: quiz.quiz_id,
          question_count: quiz.question_count,
        })),
      };
    }
    steps.through_toolsets = [...client.throughToolsets].sort();
    steps.called = [...client.called].sort();
    return { client: name, ok: true, steps };
  } catch (error) {
    return { client: name, ok: false, step, steps, error: String(error?.stack ?? error) };
  }
}

/** A framework's two connections as one: each tool through the one that lists it. */
async function connectBoth(name) {
  const plain = await CLIENTS[name](options.url);
  const withToolsets = await CLIENTS[name](TOOLSETS_URL);
  for (const tool of ['create_quiz', 'edit_questions', 'delete_quiz']) {
    if (!plain.has(tool)) throw new Error(`${tool} is not in the default list`);
  }
  const listedBy = (tool) => (plain.has(tool) ? plain : withToolsets);
  return {
    throughToolsets: new Set(),
    called: new Set(),
    call(tool, args) {
      this.called.add(tool);
      if (!plain.has(tool)) this.throughToolsets.add(tool);
      return listedBy(tool).call(tool, args);
    },
    close: () => Promise.all([plain.close(), withToolsets.close()]),
  };
}

for (const name of options.clients.split(',')) {
  let client;
  let result;
  try {
    client = await connectBoth(name);
    result = await lifeCycle(name, client);
  } catch (error) {
    result = { client: name, ok: false, step: 'connect', error: String(error?.stack ?? error) };
  }
  await client?.close().catch(() => undefined);
  console.log(JSON.stringify(result));
}
process.exit(0);
