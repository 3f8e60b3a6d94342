// Builds the MCP App view (src/mcp/apps/view/) into one self-contained HTML file,
// dist/views/quiz-app.html: the script bundled and inlined, the styles inlined, nothing
// fetched at run time (hosts render it in a sandbox whose CSP allows no other origin). Fails
// when the file would exceed its budget of 200 KB gzipped. Part of `npm run build`.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const source = path.join(root, 'src', 'mcp', 'apps', 'view');
const out = path.join(root, 'dist', 'views', 'quiz-app.html');
const BUDGET_GZIP_BYTES = 200 * 1024;

const bundle = esbuild.buildSync({
  entryPoints: [path.join(source, 'quiz-app.ts')],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  platform: 'browser',
  legalComments: 'none',
  write: false,
});
const script = bundle.outputFiles[0].text.replace(/<\/script/gi, '<\\/script');
const css = fs.readFileSync(path.join(source, 'quiz-app.css'), 'utf8');
const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Quiz service</title>
<style>${css}</style>
</head>
<body>
<main id="app" aria-live="polite"><p class="muted">Waiting for the tool's answer…</p></main>
<script>${script}</script>
</body>
</html>
`;
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, html);
const gzipped = zlib.gzipSync(html).length;
if (process.argv.includes('--report')) {
  console.log(`views: ${path.relative(root, out)} ${html.length} bytes, ${gzipped} gzipped`);
}
if (gzipped > BUDGET_GZIP_BYTES) {
  console.error(
    `views: ${path.relative(root, out)} is ${gzipped} bytes gzipped, over its ${BUDGET_GZIP_BYTES} budget`,
  );
  process.exit(1);
}
