/**
 * npm run server-json
 *
 * Writes server.json, the service's entry for the MCP Registry, for the deployment at BASE_URL
 * (the repository's copy is for the README's example host; tests/mcp/server-json holds it current).
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
  fs.writeFileSync(SERVER_JSON_PATH, serverJsonText(process.env.BASE_URL ?? EXAMPLE_BASE_URL));
  console.log(`wrote ${SERVER_JSON_PATH}`);
}
