// Entry point VS Code loads as `extensionTestsPath`: runs every bundled *.test.cjs beside it with mocha and reports through run()'s promise and report files.
import { readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';

/** What a run wrote beside the bundles (`results.json`), read by the runners. */
export interface ExtensionHostResults {
  readonly passes: number;
  readonly failures: number;
  readonly pending: number;
  readonly failed: readonly { readonly title: string; readonly error: string }[];
}

/**
 * Called by VS Code's extension host once the workbench is up. Resolves when every test passed,
 * rejects otherwise (VS Code turns that into the exit code). `NARRATORIA_EXTENSION_TESTS_GREP`
 * (in the environment of the host) runs only matching tests.
 */
export async function run(): Promise<void> {
  const here = __dirname;
  const grep = process.env['NARRATORIA_EXTENSION_TESTS_GREP'];
  // Margin: 120 s per test is a safety net above api.ts's 60 s waits, not a time limit.
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 120_000, reporter: 'spec', ...(grep ? { grep } : {}) });
  const lines: string[] = [];
  const consoleLog = Mocha.reporters.Base.consoleLog;
  // The spec reporter's lines go to the host's console (the runner shows them) and into report.txt.
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => {
    const line = format(...args);
    lines.push(line);
    console.log(`[mocha] ${line}`);
  };
  const failed: { title: string; error: string }[] = [];
  try {
    for (const file of readdirSync(here)
      .filter((name) => name.endsWith('.test.cjs'))
      .sort())
      mocha.addFile(path.join(here, file));
    const stats = await new Promise<Mocha.Stats>((resolve, reject) => {
      try {
        const runner = mocha.run(() => resolve(runner.stats ?? ({ passes: 0, failures: 0, pending: 0 } as Mocha.Stats)));
        runner.on('fail', (test, error: Error) => failed.push({ title: test.fullTitle(), error: error.stack ?? String(error) }));
      } catch (error) {
        reject(error);
      }
    });
    const results: ExtensionHostResults = { passes: stats.passes, failures: stats.failures, pending: stats.pending, failed };
    writeFileSync(path.join(here, 'results.json'), JSON.stringify(results, null, 2));
    if (stats.failures > 0) throw new Error(`${stats.failures} extension-host test(s) failed`);
    if (stats.passes === 0) throw new Error('no extension-host test ran');
  } finally {
    Mocha.reporters.Base.consoleLog = consoleLog;
    writeFileSync(path.join(here, 'report.txt'), `${lines.join('\n')}\n`);
  }
}
