// Appends each jest run's totals to tmp/test-summary.jsonl, so .ci/run can print one plain
// "N passed, N failed" line for the whole `npm test` (unit + integration + e2e).
const { appendFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const dir = join(this.rootDir, 'tmp');
    mkdirSync(dir, { recursive: true });
    const line = { passed: results.numPassedTests, failed: results.numFailedTests, skipped: results.numPendingTests };
    appendFileSync(join(dir, 'test-summary.jsonl'), `${JSON.stringify(line)}\n`);
  }
}

module.exports = SummaryReporter;
