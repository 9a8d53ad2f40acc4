// The size of libuv's thread pool for a command line: `run` starts with two threads, not libuv's four (bench b2).

/** Threads `narratoria run` gives libuv's pool when the user has not chosen a number (UV_THREADPOOL_SIZE). */
export const RUN_THREAD_POOL_SIZE = 2;

/**
 * Sets UV_THREADPOOL_SIZE for `run` before anything uses the pool (libuv reads it once, when its first task starts).
 * A run's own file work is a few reads and the run record's saves, while every skill script it starts is a fork of
 * this process, and a fork copies each thread's stack and guard mappings and its malloc arena. Two threads fewer made
 * a 200-script run 2% faster (bench b2). Skill scripts never see the variable: their environment is a chosen list
 * (scriptEnvironment.ts). Every other command keeps libuv's default: `play` loads the local model on the pool.
 */
export function sizeThreadPool(args: readonly string[], env: NodeJS.ProcessEnv): void {
  if (args[0] !== 'run' || env['UV_THREADPOOL_SIZE'] !== undefined) return;
  env['UV_THREADPOOL_SIZE'] = String(RUN_THREAD_POOL_SIZE);
}
