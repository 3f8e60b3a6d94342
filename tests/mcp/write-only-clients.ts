// The two clients of the write-only suites: the owner with full access (an API key), and an app
// the owner connected with quizzes:write alone (OAuth), in the era under test.
import type { AnyClient, EraCase } from '../helpers/mcp-clients';
import type { TestApp } from '../helpers/test-app';
import { connectApp, loggedInAgent } from '../oauth/oauth-helpers';

export async function ownerAndWriter(
  app: TestApp,
  era: EraCase,
  name: string,
): Promise<{ owner: AnyClient; writer: AnyClient }> {
  const { agent, user } = await loggedInAgent(app, `${name}-${era.era}`);
  const { tokens } = await connectApp(app, agent, { scope: 'quizzes:write' });
  expect(tokens.scope).toBe('quizzes:write');
  return { owner: await era.connect(app, user.apiKey), writer: await era.connect(app, tokens.access_token) };
}
