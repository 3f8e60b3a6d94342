import fs from 'node:fs';
import path from 'node:path';
import type { Router } from 'express';
import express from 'express';

import { packageRoot } from '../package-root';

// Assets ship as source files (tsc copies nothing): resolve them from the package root so
// they are found both from src/ (tests) and from dist/src/ (production).
const ASSETS_DIR = path.join(packageRoot, 'src', 'web', 'assets');

/** GET /assets/*: the stylesheet and small scripts, read once, cached by browsers for an hour. */
export function assetsRouter(): Router {
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const name of fs.readdirSync(ASSETS_DIR)) {
    const type = name.endsWith('.css')
      ? 'text/css; charset=utf-8'
      : name.endsWith('.js')
        ? 'text/javascript; charset=utf-8'
        : undefined;
    if (type) files.set(name, { body: fs.readFileSync(path.join(ASSETS_DIR, name)), type });
  }
  const router = express.Router();
  router.get('/assets/:name', (req, res, next) => {
    const file = files.get(req.params.name);
    if (!file) {
      next();
      return;
    }
    res.set('Cache-Control', 'public, max-age=3600').type(file.type).send(file.body);
  });
  return router;
}
