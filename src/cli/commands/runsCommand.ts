// `narratoria runs list|show|resume|cancel`: the persisted executions of a story root (docs/plan-json-and-protocol.md#run-records-and-resume).
import * as path from 'node:path';
import { FileRunStore, processAlive } from '../../runtime/persistence/runStore.js';
import { ExitCode, parseFormat, parseOptions, styler, toJson, UsageError, type CliIo } from '../cliSupport.js';
import { executeAndReport, runsDirectory } from './runCommand.js';

export async function runsCommand(args: readonly string[], io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, { root: { type: 'string' }, format: { type: 'string' } });
  const format = parseFormat(values.format);
  const [action, id] = positionals;
  const root = path.resolve(io.cwd, values.root ?? '.');
  const store = new FileRunStore(runsDirectory(root));
  const style = styler(io.stdout, io.env);
  if (action === 'list' || action === undefined) {
    const runs = await store.list();
    if (format === 'json') io.stdout.write(toJson(runs));
    else if (runs.length === 0) io.stdout.write(`No runs recorded in ${store.directory}\n`);
    else {
      for (const run of runs) {
        const status = run.status === 'running' && !run.alive ? 'interrupted' : run.status;
        io.stdout.write(`${run.planId}  ${status.padEnd(11)} ${run.toolsFinished}/${run.toolsTotal} tools  ${style.dim(run.startedAt)}\n`);
      }
    }
    return ExitCode.Success;
  }
  if (!id) throw new UsageError(`runs ${action} needs a run id (see "narratoria runs list")`);
  const record = await store.load(id).catch(() => undefined);
  if (!record) {
    io.stderr.write(`No run ${id} in ${store.directory}\n`);
    return ExitCode.Usage;
  }
  switch (action) {
    case 'show':
      io.stdout.write(toJson(record));
      return ExitCode.Success;
    case 'cancel': {
      if (record.status !== 'running' || !processAlive(record.pid)) {
        io.stderr.write(`Run ${id} is not running (status: ${record.status}).\n`);
        return ExitCode.Failure;
      }
      process.kill(record.pid, 'SIGTERM');
      io.stdout.write(`Sent SIGTERM to process ${record.pid}; it cancels run ${id} and kills its tools.\n`);
      return ExitCode.Success;
    }
    case 'resume': {
      if (record.status === 'running' && processAlive(record.pid)) {
        io.stderr.write(`Run ${id} is still running in process ${record.pid}.\n`);
        return ExitCode.Failure;
      }
      const kept = Object.values(record.tools).filter((tool) => tool.result.state === 'success').length;
      if (format === 'text') io.stdout.write(`Resuming ${id}: ${kept} completed tool(s) are kept, the rest run again.\n`);
      return executeAndReport(record.plan, record.root, { save: true, format, resume: record }, io, signal);
    }
    default:
      throw new UsageError(`unknown runs action "${action}"`);
  }
}
