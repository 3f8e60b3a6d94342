/**
 * node scripts/bench-submit-cpu.js <checkout> <checkout> [...]
 *
 * The CPU a submission costs, in process, for several builds side by side: each checkout (built,
 * `npm run build`) is loaded into this one process with a SQLite database of its own, the
 * 20-question quiz of bench:submit is created and published through its domain functions, and
 * batches of submitResponse calls alternate between the builds (forwards, then backwards). Each
 * batch is timed by process.cpuUsage, so time spent waiting for the disk or for a busy host's
 * cores is left out: on a shared host these pairs compare where bench:submit's rates cannot.
 * Ratios are each later build against the first, batch by batch, as medians.
 * BENCH_BATCH (default 200) and BENCH_BATCHES (default 16) size the run.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const BATCH = Number(process.env.BENCH_BATCH ?? 200);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 16);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const QUESTIONS = Array.from({ length: 20 }, (_, index) =>
  index % 2 === 0
    ? { type: 'yes_no', text: `Question ${index + 1}: is this statement about the topic true?`, points: 1 }
    : {
        type: 'multiple_choice',
        text: `Question ${index + 1}: which of these answers fits the topic best?`,
        options: [
          { label: 'The first possible answer', score: 2 },
          { label: 'The second possible answer', score: 0 },
          { label: 'The third possible answer', score: 1 },
          { label: 'The fourth possible answer', score: 0 },
        ],
      },
);

async function setUp(checkout) {
  const load = (file) => require(path.resolve(checkout, 'dist', 'src', file));
  const { openDatabase } = load('db/database.js');
  const { createUser } = load('domain/users.js');
  const { createQuiz } = load('domain/quizzes/create-quiz.js');
  const { publishQuiz } = load('domain/quizzes/publish-quiz.js');
  // The submission moved from domain/results/ to domain/taking/; either build is loaded.
  const taking = path.resolve(checkout, 'dist', 'src', 'domain', 'taking', 'submit-response.js');
  const { submitResponse } = load(
    fs.existsSync(taking) ? 'domain/taking/submit-response.js' : 'domain/results/submit-response.js',
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-bench-cpu-'));
  const database = await openDatabase(`file:${path.join(dir, 'bench.db')}`, { migrate: true });
  const user = await createUser(database.repos, {
    email: `bench-${Date.now()}@example.com`,
    password: 'benchmark-password',
  });
  const deps = { repos: database.repos, baseUrl: 'http://127.0.0.1' };
  const quiz = await createQuiz(deps, user.id, {
    title: `CPU bench ${Date.now()}`,
    settings: { collect_name: true },
    questions: QUESTIONS,
  });
  await publishQuiz(deps, user.id, quiz.quiz_id);
  const stored = await database.repos.quizzes.bySlug(quiz.slug);
  const input = {
    respondent: { name: 'Bench' },
    answers: stored.questions.map((question, index) =>
      index % 2 === 0
        ? { question_id: question.id, answer: 'yes' }
        : { question_id: question.id, option_index: 0 },
    ),
  };
  return {
    name: path.basename(path.resolve(checkout)),
    async batch() {
      const start = process.cpuUsage();
      for (let i = 0; i < BATCH; i += 1) await submitResponse(deps, quiz.slug, input);
      const used = process.cpuUsage(start);
      return (used.user + used.system) / BATCH;
    },
    async close() {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function main() {
  const checkouts = process.argv.slice(2);
  if (checkouts.length < 2)
    throw new Error('usage: node scripts/bench-submit-cpu.js <checkout> <checkout> [...]');
  const builds = [];
  for (const checkout of checkouts) builds.push(await setUp(checkout));
  for (const build of builds) await build.batch(); // warm-up: JIT and caches
  const figures = builds.map(() => []);
  for (let round = 0; round < BATCHES; round += 1) {
    const order = round % 2 === 0 ? builds.keys() : [...builds.keys()].reverse();
    for (const index of order) figures[index].push(await builds[index].batch());
  }
  console.log(
    `CPU a submission, in process, ${BATCHES} alternating batches of ${BATCH} (load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}):`,
  );
  builds.forEach((build, index) => {
    const ratios = figures[index].map((value, round) => value / figures[0][round]);
    console.log(
      `  ${build.name}: ${median(figures[index]).toFixed(0)} us` +
        (index === 0
          ? ''
          : `; against ${builds[0].name} ${median(ratios).toFixed(2)}x (${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)})`),
    );
  });
  for (const build of builds) await build.close();
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
