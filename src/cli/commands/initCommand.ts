// `narratoria init [DIR] [--force] [--campaign minimal|complete]`: creates a story folder (sample skills, examples, a starter campaign if asked), and says what to run next.
import * as path from 'node:path';
import { EXAMPLE_PLAN_FOLDER, STARTER_EXAMPLE_PLAN } from '../../runtime/authoring/examplePlan.js';
import { folderState, scaffoldConflicts, storyScaffoldFiles, writeStoryScaffold, type WrittenFile } from '../../runtime/authoring/storyScaffold.js';
import { ExitCode, parseOptions, styler, UsageError, type CliIo } from '../cliSupport.js';
import { shellWord } from '../commonOptions.js';
import { plural } from '../../runtime/common/humanText.js';
import { isStarterCampaign, STARTER_CAMPAIGNS, type StarterCampaign } from '../../runtime/campaign/starterCampaigns.js';

/** How many of a non-empty folder's entries the refusal names. */
const NAMED_ENTRIES = 5;

export async function initCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, { force: { type: 'boolean' }, campaign: { type: 'string' } });
  if (positionals.length > 1) throw new UsageError(`init takes one folder (got ${positionals.length}: ${positionals.join(', ')})`);
  const campaign = campaignOption(values.campaign);
  if (!io.bundledSkillsDirectory) throw new UsageError('this narratoria has no sample skills to copy (no skills/ folder beside it)');
  const given = positionals[0] ?? '.';
  const root = path.resolve(io.cwd, given);
  const force = values.force === true;

  const state = await folderState(root);
  if (state.kind === 'notFolder') throw new UsageError(`${given} is a file, not a folder`);
  if (state.kind === 'notEmpty' && !force) {
    const named =
      state.entries.slice(0, NAMED_ENTRIES).join(', ') + (state.entries.length > NAMED_ENTRIES ? `, and ${state.entries.length - NAMED_ENTRIES} more` : '');
    throw new UsageError(
      `${given} is not empty (it holds ${named}); nothing was written. Give a new or empty folder, or add --force to write the story's files ` +
        'beside what is there (nothing is deleted, but files of the same name are replaced).',
    );
  }
  const files = await storyScaffoldFiles(
    { sampleSkillsDirectory: io.bundledSkillsDirectory, examplesDirectory: path.join(path.dirname(io.bundledSkillsDirectory), 'contracts', 'examples') },
    path.basename(root),
    campaign,
  );
  const conflicts = state.kind === 'notEmpty' ? await scaffoldConflicts(root, files) : [];
  if (conflicts.length > 0)
    throw new UsageError(
      `something in ${given} is in the way (a folder where a file goes, or a file where a folder goes): ${conflicts.join(', ')}; nothing was written`,
    );

  const result = await writeStoryScaffold(root, files, force);
  const style = styler(io.stdout, io.env);
  const where = path.relative(io.cwd, root) || '.';
  const what = campaign === undefined ? 'a story' : `a story with a ${campaign} campaign`;
  io.stdout.write(`${result.failure ? `Wrote part of ${what}` : `Created ${what}`} in ${where}:\n`);
  for (const line of summaryLines(result.written)) io.stdout.write(`  ${line}\n`);
  const replaced = result.written.filter((file) => file.replaced);
  if (replaced.length > 0) {
    io.stdout.write(style.yellow(`Replaced ${replaced.length} existing file(s) (--force):\n`));
    for (const file of replaced) io.stdout.write(`  ${file.path}\n`);
  }
  if (result.failure) {
    io.stderr.write(`narratoria: cannot write ${path.join(where, result.failure.path)}: ${result.failure.message}\n`);
    return ExitCode.Failure;
  }
  const rootFlag = where === '.' ? '' : ` --root ${shellWord(where)}`;
  io.stdout.write(`\nNext: ${style.bold(`narratoria play${rootFlag}`)}   (type what you do, /quit to leave)\n`);
  if (campaign !== undefined) io.stdout.write(`Check the campaign: ${style.bold(`narratoria validate ${shellWord(where)}`)}\n`);
  io.stdout.write(
    `Then: narratoria test${rootFlag}, and narratoria validate ${shellWord(path.join(where, EXAMPLE_PLAN_FOLDER, STARTER_EXAMPLE_PLAN))}${rootFlag}; ${path.join(where, 'README.md')} tells more.\n`,
  );
  return ExitCode.Success;
}

/** The starter campaign `--campaign` names, if any. */
function campaignOption(value: string | undefined): StarterCampaign | undefined {
  if (value === undefined) return undefined;
  if (!isStarterCampaign(value)) throw new UsageError(`--campaign must be ${STARTER_CAMPAIGNS.join(' or ')}, not "${value}"`);
  return value;
}

/** The written files, a skill's files and a campaign folder's files as one line each (`skills/dice-roller/ (6 files)`, `lore/ (5 files)`). */
function summaryLines(written: readonly WrittenFile[]): string[] {
  const lines: string[] = [];
  const grouped = new Map<string, number>();
  for (const file of written) {
    const group = /^skills\/[^/]+\//.exec(file.path)?.[0] ?? /^(world|characters|plot|lore|art|music)\//.exec(file.path)?.[0];
    if (group === undefined) lines.push(file.path);
    else grouped.set(group, (grouped.get(group) ?? 0) + 1);
  }
  return [...[...grouped].map(([group, count]) => `${group} (${plural(count, 'file')})`), ...lines];
}
