// Jest reporter: after the summary, names every suite that was skipped, wholly or in part,
// because this machine lacks something (PostgreSQL, Redis, Chromium): their describe titles say
// "skipped: <why>". A green run never hides what it did not exercise. One line per file, and the
// whole suites counted apart, so the figure agrees with Jest's own "N skipped" suites.
const path = require('node:path');

class SkippedSuitesReporter {
  onRunComplete(_contexts, results) {
    const whole = [];
    const partly = [];
    for (const file of results.testResults) {
      const reasons = new Set();
      for (const test of file.testResults) {
        if (test.status !== 'pending') continue;
        const reason = test.ancestorTitles.find((title) => title.includes('skipped:'));
        if (reason) reasons.add(reason);
      }
      if (reasons.size === 0) continue;
      const line = `  - ${path.relative(process.cwd(), file.testFilePath)}: ${[...reasons].join('; ')}`;
      const allSkipped = file.testResults.every((test) => test.status === 'pending');
      (allSkipped ? whole : partly).push(line);
    }
    if (whole.length + partly.length === 0) return;
    const sections = [];
    if (whole.length > 0) {
      sections.push(`Skipped suites (${whole.length}), not run on this machine:`, ...whole);
    }
    if (partly.length > 0) {
      sections.push(`Suites run in part (${partly.length}), the rest not on this machine:`, ...partly);
    }
    process.stderr.write(`\n${sections.join('\n')}\n`);
  }
}

module.exports = SkippedSuitesReporter;
