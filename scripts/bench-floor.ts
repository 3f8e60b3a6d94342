/**
 * The floor the benchmark compares the service with: the SDK's own minimal server over HTTP.
 * `createMcpHandler` through `toNodeHandler` on an Express route, a fresh McpServer per request
 * with one trivial tool, the SDK's defaults, no authentication and no database. Both protocol
 * eras. Run by scripts/bench.ts as `node dist/scripts/bench-floor.js <port>`.
 */
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import express from 'express';
import { z } from 'zod';

const port = Number(process.argv[2]);
const inputSchema = z.object({ text: z.string() });

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'floor', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its text', inputSchema }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
});

const app = express();
app.use(express.json());
const node = toNodeHandler(handler);
app.post('/mcp', (req, res) => void node(req, res, req.body));
app.listen(port, '127.0.0.1');
