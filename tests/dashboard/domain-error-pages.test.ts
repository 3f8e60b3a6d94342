// The dashboard's answers to domain errors, on a bare Express app: a refusal the route explains
// where it calls the domain (domainRefusal), the not-found page for a 404 code nobody explained,
// and anything else passed on. The pages these produce in the real dashboard are in the other
// tests of this folder.
import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import { domainErrorPages, domainRefusal } from '../../src/dashboard/domain-error-pages';
import type { DomainErrorCode } from '../../src/domain/errors';
import { DomainError } from '../../src/domain/errors';

function appThrowing(error: unknown, explained: readonly DomainErrorCode[] = []) {
  const app = express();
  app.get('/', async (_req, res) => {
    try {
      await Promise.reject(error);
    } catch (thrown) {
      const refusal = domainRefusal(thrown, explained);
      if (!refusal) throw thrown;
      res.status(refusal.status).send(`own answer to ${refusal.error.code}`);
    }
  });
  const passedOn: ErrorRequestHandler = (_error, _req, res, _next) => {
    res.status(599).send('passed on');
  };
  app.use(domainErrorPages(), passedOn);
  return app;
}

describe('domain errors on the dashboard', () => {
  test("a code the route explains gets the route's answer, at the status of the error table", async () => {
    const res = await request(
      appThrowing(new DomainError('key_limit_reached', 'too many'), ['key_limit_reached']),
    ).get('/');
    expect(res.status).toBe(409);
    expect(res.text).toBe('own answer to key_limit_reached');
  });

  test('a not-found code the route did not explain gets the not-found page, naming the thing', async () => {
    const res = await request(
      appThrowing(new DomainError('quiz_not_found', 'no quiz'), ['invalid_input']),
    ).get('/');
    expect(res.status).toBe(404);
    expect(res.text).toContain('There is no quiz here');
  });

  test('any other domain error, and anything that is not one, goes on to the last resort', async () => {
    expect((await request(appThrowing(new DomainError('invalid_state', 'no'))).get('/')).status).toBe(599);
    expect((await request(appThrowing(new Error('boom'), ['invalid_input'])).get('/')).status).toBe(599);
  });
});
