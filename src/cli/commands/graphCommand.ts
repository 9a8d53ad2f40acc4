// `narratoria graph <plan.json | run record | ExecutionResult> [--root DIR] [--format json|svg|dot|mermaid] [--out FILE]`.
import * as path from 'node:path';
import { writeFileAtomic } from '../../runtime/common/atomicWrite.js';
import { graphDocument } from '../../runtime/graph/planGraphDocument.js';
import { renderGraphSvg } from '../../runtime/graph/graphSvg.js';
import { renderGraphDot, renderGraphMermaid } from '../../runtime/graph/graphText.js';
import { toGraphJson } from '../../runtime/graph/graphJson.js';
import { recordedPlan } from '../../runtime/graph/graphSource.js';
import { storyScriptNames } from '../../runtime/graph/graphScriptNames.js';
import { ExitCode, parseOptions, readInputFile, styler, UsageError, type CliIo } from '../cliSupport.js';

const FORMATS = ['json', 'svg', 'dot', 'mermaid'] as const;
type GraphFormat = (typeof FORMATS)[number];

export async function graphCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, { root: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' } });
  const format = (values.format ?? 'json') as GraphFormat;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${values.format}"`);
  if (positionals.length !== 1)
    throw new UsageError(positionals.length === 0 ? 'graph needs a plan, run record or ExecutionResult file' : 'graph takes one file');
  const file = positionals[0]!;
  const text = await readInputFile(file, io);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const root = path.resolve(io.cwd, values.root ?? '.');
  // A toolPath naming a script by an alias is drawn with the script's canonical name.
  const graphed = graphDocument(document, { planOfRun: (planId) => recordedPlan(root, planId), scriptNames: storyScriptNames({ root }) });
  const title = `Plan graph of ${path.basename(file)}`;
  const output =
    format === 'svg'
      ? renderGraphSvg(graphed.layout, { title })
      : format === 'dot'
        ? renderGraphDot(graphed.layout)
        : format === 'mermaid'
          ? renderGraphMermaid(graphed.layout)
          : JSON.stringify(toGraphJson(graphed.layout), null, 2) + '\n';
  if (values.out) {
    const target = path.resolve(io.cwd, values.out);
    try {
      await writeFileAtomic(target, output);
    } catch (error) {
      io.stderr.write(`narratoria: cannot write ${values.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      return ExitCode.Usage;
    }
  } else io.stdout.write(output);
  const style = styler(io.stderr, io.env);
  for (const note of graphed.notes) io.stderr.write(`${file}: ${style.yellow('warning')}: ${note}\n`);
  for (const problem of graphed.problems) io.stderr.write(`${file}: ${style.red('error')}: ${problem}\n`);
  return graphed.problems.length > 0 ? ExitCode.Failure : ExitCode.Success;
}
