// The dashboard's one answer to domain errors, on a bare Express app: a route's own answer for
// the codes it named, the not-found page for a 404 code, and anything else passed on. The pages
// these produce in the real dashboard are in the other tests of this folder.
import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import { answerDomainErrors, domainErrorPages } from '../../src/dashboard/domain-error-pages';
import { DomainError } from '../../src/domain/errors';

function appThrowing(error: unknown, answers?: Parameters<typeof answerDomainErrors>[1]) {
  const app = express();
  app.get('/', async (_req, res) => {
    if (answers) {
      answerDomainErrors(res, answers, (thrown, status) => {
        res.status(status).send(`own answer to ${thrown.code}`);
      });
    }
    throw error;
  });
  const passedOn: ErrorRequestHandler = (_error, _req, res, _next) => {
    res.status(599).send('passed on');
  };
  app.use(domainErrorPages(), passedOn);
  return app;
}

describe('domainErrorPages', () => {
  test("a code the route named gets the route's answer, at the status of the error table", async () => {
    const res = await request(
      appThrowing(new DomainError('key_limit_reached', 'too many'), ['key_limit_reached']),
    ).get('/');
    expect(res.status).toBe(409);
    expect(res.text).toBe('own answer to key_limit_reached');
  });

  test('a not-found code the route did not name gets the not-found page, naming the thing', async () => {
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
