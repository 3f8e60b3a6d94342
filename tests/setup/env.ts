// Tests never read the developer's .env or log to the console unless asked.
process.env.LOG_LEVEL ??= 'silent';
process.env.NODE_ENV ??= 'test';
// Passwords hashed at the production cost (128 MiB and a good part of a second each) would
// make every test that signs someone up slow: tests hash at a lower cost, set here for the
// process (tests/domain/passwords.test.ts checks the production default on its own).
process.env.PASSWORD_HASH_COST ??= '12';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- after the environment is set
(require('../../src/domain/passwords') as typeof import('../../src/domain/passwords')).setPasswordHashCost(
  Number(process.env.PASSWORD_HASH_COST),
);
