import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { openDatabase, type Database } from '../db/database';
import { createApiKey, listApiKeys, revokeApiKey } from '../domain/api-keys';
import { isDomainError } from '../domain/errors';
import { createUser, requireUserByEmail } from '../domain/users';

/**
 * Operator CLI (README, "Operator CLI"). Stable: scripts rely on its output.
 *   users create --email E --password P
 *   keys create --email E --name N       prints the new key, alone, on stdout
 *   keys list --email E                  one key per line: id, prefix...last4, name, created, last used
 *   keys revoke --email E --id ID
 * Exit code 0 on success; otherwise 1 with a one-line reason on stderr (2 for usage errors).
 */
const USAGE = `Usage:
  npm run --silent cli -- users create --email EMAIL --password PASSWORD
  npm run --silent cli -- keys create --email EMAIL --name NAME
  npm run --silent cli -- keys list --email EMAIL
  npm run --silent cli -- keys revoke --email EMAIL --id KEY_ID`;

class UsageError extends Error {}

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name];
  if (value === undefined || value === '') throw new UsageError(`missing --${name}`);
  return value;
}

export async function run(argv: string[], database: Database, out: (line: string) => void): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      id: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const command = positionals.join(' ');
  const db = database.prisma;
  switch (command) {
    case 'users create': {
      const user = await createUser(db, {
        email: required(values, 'email'),
        password: required(values, 'password'),
      });
      out(`${user.id} ${user.email}`);
      return;
    }
    case 'keys create': {
      const user = await requireUserByEmail(db, required(values, 'email'));
      const key = await createApiKey(db, user.id, required(values, 'name'));
      out(key.key);
      return;
    }
    case 'keys list': {
      const user = await requireUserByEmail(db, required(values, 'email'));
      for (const key of await listApiKeys(db, user.id)) {
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
      const user = await requireUserByEmail(db, required(values, 'email'));
      await revokeApiKey(db, user.id, required(values, 'id'));
      out(`revoked ${required(values, 'id')}`);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

async function main(): Promise<number> {
  let database: Database | undefined;
  try {
    const config = loadConfig();
    database = await openDatabase(config.databaseUrl, { migrate: true, poolSize: 2 });
    await run(process.argv.slice(2), database, (line) => process.stdout.write(`${line}\n`));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      // One line of reason, which scripts read; the usage text only when no command was given.
      const noCommand = process.argv.slice(2).length === 0;
      process.stderr.write(
        `error: ${(error as Error).message}${noCommand ? `\n${USAGE}` : ' (run with no arguments for usage)'}\n`,
      );
      return 2;
    }
    const message = isDomainError(error)
      ? error.message.replace(/\n/g, ' ')
      : error instanceof ConfigError
        ? error.message.replace(/\n/g, ' ')
        : `unexpected failure: ${(error as Error).message}`;
    process.stderr.write(`error: ${message}\n`);
    return 1;
  } finally {
    await database?.close();
  }
}

if (require.main === module) {
  void main().then((code) => process.exit(code));
}
