// The README's list of what `npm test` skips names every reason the suite can print: each test
// helper that skips a suite visibly has a REQUIRE_* variable that makes it mandatory instead.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const helpers = path.join(root, 'tests', 'helpers');

test('every REQUIRE_* switch of a skipping helper is in the README', () => {
  const switches = new Set<string>();
  for (const file of fs.readdirSync(helpers)) {
    const text = fs.readFileSync(path.join(helpers, file), 'utf8');
    if (!text.includes('skipped:')) continue;
    for (const match of text.matchAll(/\bREQUIRE_[A-Z_]+\b/g)) switches.add(match[0]);
  }
  expect(switches.size).toBeGreaterThanOrEqual(4);
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const tests = readme.slice(readme.indexOf('Tests: `npm test`'));
  expect([...switches].filter((name) => !tests.includes(`${name}=1`))).toEqual([]);
});
