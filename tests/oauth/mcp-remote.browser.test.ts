// mcp-remote, the stdio bridge that clients without remote-server support use, through the whole
// OAuth flow against the running service, once under each loopback name while BASE_URL names
// 127.0.0.1: discovery, dynamic registration, PKCE, the person's log-in and consent in
// Chromium, the code exchange, then a tool call over its standard input and output.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../helpers/service-process';
import { describeWithBrowser, launchBrowser, screenshot } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';

const PROXY = require.resolve('mcp-remote/dist/proxy.js');

/** Resolves with the first match of `pattern` in what the stream has written so far. */
function waitFor(stream: NodeJS.ReadableStream, seen: { text: string }, pattern: RegExp, ms = 20_000) {
  return new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${pattern}; saw:\n${seen.text}`)),
      ms,
    );
    const check = () => {
      const match = seen.text.match(pattern);
      if (match) {
        clearTimeout(timer);
        stream.off('data', check);
        resolve(match);
      }
    };
    stream.on('data', check);
    check();
  });
}

/** JSON-RPC over the bridge's stdio: one message per line each way. */
function rpc(child: ChildProcessWithoutNullStreams) {
  const waiting = new Map<number, (message: any) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line);
    if (typeof message.id === 'number') waiting.get(message.id)?.(message);
  });
  let next = 1;
  return {
    request(method: string, params: object): Promise<any> {
      const id = next++;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    notify(method: string) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
    },
  };
}

describeWithBrowser('mcp-remote through OAuth, under each loopback name', () => {
  let app: TestApp;
  let port: string;
  beforeAll(async () => {
    app = await startTestApp(); // BASE_URL http://127.0.0.1:<port>
    port = new URL(app.baseUrl).port;
  });
  afterAll(async () => {
    await app?.close();
  });

  test.each(['127.0.0.1', 'localhost'])(
    'http://%s:<port>/api/mcp: registration, consent in Chromium, then a tool call',
    async (name) => {
      const user = await createTestUser(app, `mcp-remote-${name}`);
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-remote-'));
      const callbackPort = await freePort();
      const child = spawn(
        process.execPath,
        [PROXY, `http://${name}:${port}/api/mcp`, String(callbackPort), '--host', '127.0.0.1'],
        {
          // Its token store in a fresh folder; no desktop to open a browser on (the test is the person).
          env: {
            PATH: process.env.PATH ?? '',
            HOME: home,
            MCP_REMOTE_CONFIG_DIR: path.join(home, '.mcp-auth'),
          },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      const stderr = { text: '' };
      child.stderr.on('data', (chunk: Buffer) => (stderr.text += chunk.toString()));
      const browser = await launchBrowser();
      try {
        const [, authorizationUrl] = await waitFor(
          child.stderr,
          stderr,
          /Please authorize this client by visiting:\s+(\S+)/,
        );
        const url = new URL(authorizationUrl!);
        expect(url.origin).toBe(`http://${name}:${port}`);
        expect(url.searchParams.get('resource')).toBe(`http://${name}:${port}/api/mcp`);
        expect(url.searchParams.get('code_challenge_method')).toBe('S256');

        const page = await browser.newPage();
        await page.goto(url.href);
        await page.getByLabel('Email').fill(user.email);
        await page.getByLabel('Password').fill(user.password);
        await page.getByRole('button', { name: 'Log in' }).click();
        await page.getByRole('button', { name: 'Allow' }).waitFor();
        await screenshot(page, `mcp-remote-consent-${name}`);
        await page.getByRole('button', { name: 'Allow' }).click();
        await page.waitForURL(/\/oauth\/callback/);

        const bridge = rpc(child);
        const init = await bridge.request('initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'test', version: '1.0.0' },
        });
        expect(init.result.serverInfo.name).toBeTruthy();
        bridge.notify('notifications/initialized');
        const listed = await bridge.request('tools/call', { name: 'list_quizzes', arguments: {} });
        expect(listed.result.isError).toBeFalsy();
        expect(JSON.parse(listed.result.content[0].text)).toEqual({ quizzes: [], next_cursor: null });
        // The grant is the person's, under the name used, and the token's audience is that name.
        const grants = await app.database.prisma.oAuthGrant.findMany({ where: { userId: user.id } });
        expect(grants).toHaveLength(1);
        const tokens = await app.database.prisma.oAuthToken.findMany({ where: { userId: user.id } });
        expect(tokens.map((token) => token.resource)).toEqual([`http://${name}:${port}/api/mcp`]);
      } finally {
        await browser.close();
        child.kill('SIGKILL');
        fs.rmSync(home, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
