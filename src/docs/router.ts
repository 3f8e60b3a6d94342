import express, { type Router } from 'express';
import type { Config } from '../config';
import type { ToolRegistry } from '../mcp/registry';
import { pageSecurity } from '../web/security';
import { renderApiReference } from './api-reference';
import { buildOpenApi } from './openapi';
import { csvTemplate } from '../domain/import/csv';

/** The API description and the human reference, rendered once at start-up. */
export function docsRouter(
  config: Config,
  registry: ToolRegistry,
  extend: (doc: Record<string, unknown>) => void = () => {},
): Router {
  const openapi = buildOpenApi(config, registry);
  extend(openapi);
  const openapiJson = JSON.stringify(openapi);
  const reference = renderApiReference(config, registry);
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').type('application/json').send(openapiJson);
  });
  router.get(
    '/en/docs/api-reference',
    pageSecurity({ https: config.baseUrl.startsWith('https:') }),
    (_req, res) => {
      res.set('Cache-Control', 'public, max-age=300').type('html').send(reference);
    },
  );
  // The CSV layout of import_questions, ready to fill in (the reference's "Importing questions").
  const template = csvTemplate();
  router.get('/docs/import-template.csv', (_req, res) => {
    res
      .set('Cache-Control', 'public, max-age=300')
      .set('Content-Disposition', 'attachment; filename="import-template.csv"')
      .type('text/csv; charset=utf-8')
      .send(template);
  });
  return router;
}
