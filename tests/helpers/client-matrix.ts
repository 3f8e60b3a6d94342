// The client matrix (tools/clients/matrix.mjs): a quiz's life cycle through the MCP clients of
// Vercel's AI SDK, LangChain, Mastra and mcp-use, each through its own tool wrappers. Mastra and
// the AI SDK need Node 22 while the service runs on Node 20, so the folder has its own lock and
// the Node 22 of the `node` package, as tools/inspector does (tool-folders.ts: installed by
// `npm run tools:install`).
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { toolDir } from './tool-folders';

export const CLIENTS_DIR = toolDir('clients');
const NODE = path.join(CLIENTS_DIR, 'node_modules', 'node', 'bin', 'node');
const MATRIX = path.join(CLIENTS_DIR, 'matrix.mjs');

/** The clients the matrix drives, in the order it runs them. */
export const MATRIX_CLIENTS = ['ai-sdk', 'langchain', 'mastra', 'mcp-use'] as const;
export type MatrixClient = (typeof MATRIX_CLIENTS)[number];

/** One client's line: its life cycle's steps as the client read them, or where it failed. */
export interface MatrixResult {
  client: MatrixClient;
  ok: boolean;
  step?: string;
  error?: string;
  steps: Record<string, any>;
}

/**
 * Runs the matrix against `mcpUrl` with `apiKey`. Before each client deletes its quiz the
 * matrix waits while `beforeDelete` looks at the database.
 */
export async function runMatrix(options: {
  mcpUrl: string;
  apiKey: string;
  fixture: string;
  /** The response a respondent submits once the quiz is published, and the grades of its essay. */
  response: string;
  /** A GIFT bank each client also imports with import_questions, a dry run first. */
  gift?: string;
  beforeDelete: (client: MatrixClient, quizId: string) => Promise<void>;
  timeoutMs: number;
}): Promise<{ code: number | null; results: MatrixResult[]; stderr: string }> {
  const args = [
    MATRIX,
    '--url',
    options.mcpUrl,
    '--fixture',
    options.fixture,
    '--response',
    options.response,
    '--pause-before-delete',
  ];
  if (options.gift) args.push('--gift', options.gift);
  const child = spawn(NODE, args, {
    cwd: CLIENTS_DIR,
    env: { ...process.env, QUIZ_API_KEY: options.apiKey, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const results: MatrixResult[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  // Lines that are not JSON are the clients' own logging.
  for await (const line of readline.createInterface({ input: child.stdout })) {
    if (!line.startsWith('{')) continue;
    const message = JSON.parse(line);
    if (message.phase === 'before-delete') {
      await options.beforeDelete(message.client, message.quiz_id);
      child.stdin.write('\n');
    } else {
      results.push(message as MatrixResult);
    }
  }
  const code = await exited;
  clearTimeout(timer);
  return { code, results, stderr };
}
