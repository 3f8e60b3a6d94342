/**
 * npm run server-json [-- --check]
 *
 * Writes server.json, the service's entry for the MCP Registry, for the deployment at BASE_URL
 * (the repository's copy is for the README's example host). With --check it writes nothing and
 * fails when the file differs from what it would write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { registryServerJson } from '../src/mcp/server-card';

// Run from dist/scripts after the build.
const SERVER_JSON_PATH = path.resolve(__dirname, '..', '..', 'server.json');
export const EXAMPLE_BASE_URL = 'https://quiz.example.com';

export function serverJsonText(base: string): string {
  return `${JSON.stringify(registryServerJson(base.replace(/\/+$/, '')), null, 2)}\n`;
}

if (require.main === module) {
  const text = serverJsonText(process.env.BASE_URL ?? EXAMPLE_BASE_URL);
  if (process.argv.includes('--check')) {
    const kept = fs.existsSync(SERVER_JSON_PATH) ? fs.readFileSync(SERVER_JSON_PATH, 'utf8') : '';
    if (kept !== text) {
      console.error('server.json is out of date: run npm run server-json');
      process.exit(1);
    }
  } else {
    fs.writeFileSync(SERVER_JSON_PATH, text);
    console.log(`wrote ${SERVER_JSON_PATH}`);
  }
}
