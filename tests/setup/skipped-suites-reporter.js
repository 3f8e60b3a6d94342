// Jest reporter: after the summary, names every suite that was skipped because this machine
// lacks something (PostgreSQL, Redis, Chromium): their describe titles say "skipped: <why>".
// A green run never hides what it did not exercise.
const path = require('node:path');

class SkippedSuitesReporter {
  onRunComplete(_contexts, results) {
    const lines = new Set();
    for (const file of results.testResults) {
      for (const test of file.testResults) {
        if (test.status !== 'pending') continue;
        const reason = test.ancestorTitles.find((title) => title.includes('skipped:'));
        if (reason) lines.add(`  - ${path.relative(process.cwd(), file.testFilePath)}: ${reason}`);
      }
    }
    if (lines.size === 0) return;
    process.stderr.write(
      `\nSkipped suites (${lines.size}), not run on this machine:\n${[...lines].join('\n')}\n`,
    );
  }
}

module.exports = SkippedSuitesReporter;
