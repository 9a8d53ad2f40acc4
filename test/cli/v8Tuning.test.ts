// tuneV8ForRun: V8's flags for the part of `run` that waits on scripts, set back once after, and left alone when the user chose their own.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { RESTORED_FLAGS, RUN_FLAGS, tuneV8ForRun } from '../../src/cli/cliSupport.js';

function recorder(): { readonly flags: string[]; readonly set: (flags: string) => void } {
  const flags: string[] = [];
  return { flags, set: (flag) => void flags.push(flag) };
}

test('the run sets its flags, and the returned function sets V8 back once', () => {
  const v8 = recorder();
  const restore = tuneV8ForRun({}, v8.set, []);
  assert.deepEqual(v8.flags, ['--no-turbofan', '--always-sparkplug', '--semi-space-growth-factor=1']);
  restore();
  restore();
  assert.deepEqual(v8.flags, [...RUN_FLAGS, '--turbofan', '--no-always-sparkplug', '--semi-space-growth-factor=2']);
  assert.equal(RESTORED_FLAGS.length, RUN_FLAGS.length);
});

test('flags the user chose (execArgv or NODE_OPTIONS) leave V8 alone', () => {
  for (const [env, execArgv] of [
    [{ NODE_OPTIONS: '--max-old-space-size=4096 --jitless' }, []],
    [{ NODE_OPTIONS: '--no-opt' }, []],
    [{}, ['--semi-space-growth-factor=4']],
    [{}, ['--no-sparkplug']],
  ] as const) {
    const v8 = recorder();
    tuneV8ForRun(env, v8.set, execArgv)();
    assert.deepEqual(v8.flags, [], JSON.stringify({ env, execArgv }));
  }
});

test('other Node options do not stop the tuning', () => {
  const v8 = recorder();
  tuneV8ForRun({ NODE_OPTIONS: '--max-old-space-size=4096 --enable-source-maps' }, v8.set, ['--inspect=0'])();
  assert.deepEqual(v8.flags, [...RUN_FLAGS, ...RESTORED_FLAGS]);
});
