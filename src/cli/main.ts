import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { openDatabase, type Database } from '../db/database';
import { DatabaseSetupError } from '../db/errors';
import { createApiKey, listApiKeys, revokeApiKey } from '../domain/api-keys';
import { isDomainError } from '../domain/errors';
import { setPasswordHashCost } from '../domain/passwords';
import { recomputeResultFigures } from '../domain/reporting/recompute-figures';
import { createUser, PASSWORD_RULE, requireUserByEmail, setPassword } from '../domain/users';
import { readPassword } from './read-password';

/**
 * Operator CLI (README, "Operator CLI"). Stable: scripts rely on its output.
 * Exit code 0 on success; otherwise 1 with a one-line reason on stderr (2 for usage errors).
 * Passwords are never taken from the command line (it shows in `ps` and shell history), except
 * through `users create --password`, kept for the scripts that already use it.
 */
interface CommandHelp {
  usage: string;
  summary: string;
  details: string[];
}

const COMMANDS: Record<string, CommandHelp> = {
  'users create': {
    usage: 'users create --email EMAIL [--if-missing] [--password PASSWORD]',
    summary: 'Create an account; prints its id and email.',
    details: [
      'With --if-missing, an account that exists already is left as it is (its password unchanged)',
      'and printed the same way, so a script that sets up an account can run twice.',
      'Without --password, the password is read from a prompt (not echoed) or, when standard input',
      'is not a terminal, from its first line: printf %s "$PASSWORD" | npm run --silent cli -- users create ...',
      `${PASSWORD_RULE}.`,
    ],
  },
  'users set-password': {
    usage: 'users set-password --email EMAIL',
    summary: 'Set a new password for an account (a forgotten one); logs it out everywhere.',
    details: [
      'The password is read from a prompt (not echoed) or, when standard input is not a terminal,',
      'from its first line. API keys and connected apps keep working.',
      `${PASSWORD_RULE}.`,
    ],
  },
  'keys create': {
    usage: 'keys create --email EMAIL --name NAME',
    summary: 'Create an API key for an account; prints the key alone (it is not shown again).',
    details: ['An account has at most 10 active keys.'],
  },
  'keys list': {
    usage: 'keys list --email EMAIL',
    summary: "List an account's active keys, one per line, tab-separated.",
    details: [
      'Columns: id, prefix...last4, name (JSON), created, last used (or "never").',
      'On a terminal a header row names them; piped into a script, only the keys are printed.',
    ],
  },
  'keys revoke': {
    usage: 'keys revoke --email EMAIL --id KEY_ID',
    summary: 'Revoke a key; requests with it are refused from then on.',
    details: [],
  },
  'results recompute': {
    usage: 'results recompute [--quiz QUIZ_ID]',
    summary: "Rebuild the results' running figures from the stored responses; prints how many quizzes.",
    details: [
      'Every quiz, or the one named. The figures are kept with every submission, deletion and',
      're-marking; this is for after a restore or a hand edit of the rows. Safe while the service',
      'runs: submissions to a quiz wait while its figures are rebuilt.',
    ],
  },
};

const PREFIX = 'npm run --silent cli --';

function usage(): string {
  const lines = Object.values(COMMANDS).map(
    (command) => `  ${PREFIX} ${command.usage}\n      ${command.summary}`,
  );
  return [
    'Usage:',
    ...lines,
    '',
    `Help on one command: ${PREFIX} keys create --help`,
    'The database is the one the service uses: DATABASE_URL, or the embedded default.',
  ].join('\n');
}

function commandHelp(name: string): string {
  const command = COMMANDS[name]!;
  return [`Usage: ${PREFIX} ${command.usage}`, '', command.summary, ...command.details].join('\n');
}

export class UsageError extends Error {}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`missing --${name}`);
  return value;
}

/** Where a password comes from when it is not on the command line. */
export type PasswordSource = (prompt: string) => Promise<string>;

export interface CliIo {
  out: (line: string) => void;
  readPassword: PasswordSource;
  /** Standard output is a terminal: a person reads it, so tables get a header row. */
  toTerminal?: boolean;
}

const KEY_COLUMNS = ['ID', 'KEY', 'NAME', 'CREATED', 'LAST USED'];

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      id: { type: 'string' },
      quiz: { type: 'string' },
      'if-missing': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
}

/** `--help` (or no arguments): the text to print, without touching the database; else null. */
export function helpFor(argv: string[]): string | null {
  if (argv.length === 0) return usage();
  let parsed;
  try {
    parsed = parse(argv);
  } catch {
    return argv.includes('--help') || argv.includes('-h') ? usage() : null;
  }
  const command = parsed.positionals.join(' ');
  if (!parsed.values.help && command !== 'help') return null;
  return COMMANDS[command] ? commandHelp(command) : usage();
}

export async function run(argv: string[], database: Database, io: CliIo): Promise<void> {
  const { values, positionals } = parse(argv);
  const command = positionals.join(' ');
  const { repos } = database;
  const { out } = io;
  switch (command) {
    case 'users create': {
      const email = required(values, 'email');
      const password = values.password ?? (await io.readPassword(`Password for ${email}: `));
      try {
        const user = await createUser(repos, { email, password });
        out(`${user.id} ${user.email}`);
      } catch (error) {
        if (!(values['if-missing'] && isDomainError(error) && error.code === 'user_exists')) throw error;
        const user = await requireUserByEmail(repos, email);
        out(`${user.id} ${user.email}`);
      }
      return;
    }
    case 'users set-password': {
      if (values.password !== undefined) {
        throw new UsageError(
          'set-password takes no --password: type it at the prompt or pipe it on standard input',
        );
      }
      const email = required(values, 'email');
      const user = await requireUserByEmail(repos, email);
      const result = await setPassword(
        repos,
        user.email,
        await io.readPassword(`New password for ${user.email}: `),
      );
      out(`password set for ${result.email}; ${result.sessionsEnded} session(s) logged out`);
      return;
    }
    case 'keys create': {
      const user = await requireUserByEmail(repos, required(values, 'email'));
      const key = await createApiKey(repos, user.id, required(values, 'name'));
      out(key.key);
      return;
    }
    case 'keys list': {
      const user = await requireUserByEmail(repos, required(values, 'email'));
      const keys = await listApiKeys(repos, user.id);
      if (io.toTerminal) out(keys.length > 0 ? KEY_COLUMNS.join('\t') : `no active keys for ${user.email}`);
      for (const key of keys) {
        out(
          [
            key.id,
            `${key.prefix}...${key.last4}`,
            JSON.stringify(key.name),
            key.created_at,
            key.last_used_at ?? 'never',
          ].join('\t'),
        );
      }
      return;
    }
    case 'keys revoke': {
      const user = await requireUserByEmail(repos, required(values, 'email'));
      await revokeApiKey(repos, user.id, required(values, 'id'));
      out(`revoked ${required(values, 'id')}`);
      return;
    }
    case 'results recompute': {
      const quizId = values.quiz === undefined ? undefined : required(values, 'quiz');
      out(`recomputed the results of ${await recomputeResultFigures(repos, quizId)} quiz(zes)`);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

/** A bad invocation in the CLI's own words, or undefined for any other failure. */
export function usageReason(error: unknown): string | undefined {
  if (error instanceof UsageError) return error.message;
  const { code, message } = error as { code?: string; message?: string };
  if (!code?.startsWith('ERR_PARSE_ARGS')) return undefined;
  // Node's parser quotes the option and adds advice about positionals that fits no command here.
  const option = /'(-{1,2}[^']*)'/.exec(message ?? '')?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option ${option}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option)
    return `${option.split(' ')[0]} needs a value`;
  return (message ?? 'the arguments could not be read').split('\n')[0];
}

/** A failure as one line: a domain error's fields as "field: what to fix", joined by "; ". */
export function failureReason(error: unknown): string {
  if (isDomainError(error)) {
    if (error.issues.length === 0) return error.message.replace(/\n/g, ' ');
    const summary = error.message.split(':\n')[0]!.replace(/^./, (first) => first.toLowerCase());
    return `${summary}: ${error.issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ')}`;
  }
  if (error instanceof ConfigError || error instanceof DatabaseSetupError)
    return error.message.replace(/\n/g, ' ');
  return `unexpected failure: ${(error as Error).message}`;
}

async function main(): Promise<number> {
  let database: Database | undefined;
  const argv = process.argv.slice(2);
  try {
    const help = helpFor(argv);
    if (help !== null) {
      process.stdout.write(`${help}\n`);
      return 0;
    }
    const config = loadConfig();
    setPasswordHashCost(config.passwordHashCost);
    database = await openDatabase(config.databaseUrl, { migrate: true, poolSize: 2 });
    await run(argv, database, {
      out: (line) => process.stdout.write(`${line}\n`),
      readPassword: (prompt) => readPassword(prompt, process.stdin, process.stderr),
      toTerminal: process.stdout.isTTY === true,
    });
    return 0;
  } catch (error) {
    const usageProblem = usageReason(error);
    if (usageProblem) {
      // One line of reason, which scripts read.
      process.stderr.write(`error: ${usageProblem} (add --help for usage)\n`);
      return 2;
    }
    process.stderr.write(`error: ${failureReason(error)}\n`);
    return 1;
  } finally {
    await database?.close();
  }
}

if (require.main === module) {
  void main().then((code) => process.exit(code));
}
