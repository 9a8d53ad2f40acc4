// `narratoria validate <plan.json | campaign>...`: checks plans (schema, semantics, skill inputs; a broken skill a plan uses is an error) and campaigns, with positions.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { createSkillCatalog } from '../../runtime/skills/skillCatalog.js';
import { discoverSkills } from '../../runtime/skills/skillDiscovery.js';
import { validatePlanText } from '../../runtime/validation/validatePlan.js';
import { toReportDiagnostic, type ReportDiagnostic } from '../../runtime/validation/diagnostic.js';
import { cannotRead, ExitCode, parseFormat, parseOptions, styler, toJson, UsageError, type CliIo } from '../cliSupport.js';
import { brokenSkillWarning, formatDiagnostic, unusedBrokenSkills } from './diagnosticLines.js';
import { campaignEntry, validateTarget, type ValidateEntry } from './campaignEntry.js';

export type { ValidateEntry } from './campaignEntry.js';

/**
 * Options: --root DIR, --format text|json, --allow-tool-root DIR (repeatable), --allow-outside-skills. Broken skills
 * the plan does not use are warnings at their skill.json. A folder with manifest.json at its root (or that
 * manifest.json) is a campaign, validated whole (src/runtime/campaign); the options are the plans'.
 */
export async function validateCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, {
    root: { type: 'string' },
    format: { type: 'string' },
    'allow-outside-skills': { type: 'boolean' },
    'allow-tool-root': { type: 'string', multiple: true },
  });
  const format = parseFormat(values.format);
  if (positionals.length === 0) throw new UsageError('validate needs at least one plan file or campaign folder');
  const root = path.resolve(io.cwd, values.root ?? '.');
  const targets = await Promise.all(positionals.map((file) => validateTarget(file, io.cwd)));
  // The story's skills (for plans only): inputs are checked against their scripts' input schemas, as in the editor.
  const discovery = targets.some((target) => target.kind === 'plan') ? await discoverSkills({ root }) : { skills: [], broken: [] };
  const skills = createSkillCatalog(discovery.skills);
  const brokenSkills = discovery.broken;
  const allowOutsideSkills = values['allow-outside-skills'] === true;
  const allowedToolRoots = (values['allow-tool-root'] ?? []).map((directory) => path.resolve(io.cwd, directory));
  const entries: ValidateEntry[] = [];
  let unreadable = false;
  for (const [index, file] of positionals.entries()) {
    const target = targets[index]!;
    if (target.kind === 'campaign') {
      entries.push(await campaignEntry(file, target.folder, io.cwd));
      continue;
    }
    const read = target.kind === 'folder' ? { problem: target.message } : await readPlan(path.resolve(io.cwd, file), file);
    if ('problem' in read) {
      unreadable = true;
      const message = read.problem;
      const unread: ReportDiagnostic = {
        severity: 'error',
        code: 'FILE_UNREADABLE',
        message,
        pointer: '',
        line: null,
        column: null,
        endLine: null,
        endColumn: null,
      };
      entries.push({ file, valid: false, diagnostics: [unread] });
      continue;
    }
    const text = read.text;
    const result = await validatePlanText(text, { root, allowOutsideSkills, allowedToolRoots, skills, brokenSkills });
    // A broken skill the plan uses is an error (SKILL_BROKEN, on its toolPath); the others are warnings at their skill.json.
    const unused = unusedBrokenSkills(brokenSkills, result.resolvedToolPaths.values());
    const warnings = unused.flatMap((broken) => broken.problems.map((problem) => brokenSkillWarning(problem, io.cwd)));
    entries.push({ file, valid: result.valid, diagnostics: [...result.diagnostics.map(toReportDiagnostic), ...warnings] });
  }
  if (format === 'json') io.stdout.write(toJson(entries));
  else printText(entries, io);
  if (unreadable) return ExitCode.Usage;
  return entries.every((entry) => entry.valid) ? ExitCode.Success : ExitCode.Failure;
}

async function readPlan(absolute: string, file: string): Promise<{ text: string } | { problem: string }> {
  try {
    return { text: await readFile(absolute, 'utf8') };
  } catch (error) {
    return { problem: cannotRead(file, error) };
  }
}

function printText(entries: readonly ValidateEntry[], io: CliIo): void {
  const style = styler(io.stdout, io.env);
  let errors = 0;
  let warnings = 0;
  // A broken skill.json is reported once, not once per plan.
  const printed = new Set<string>();
  for (const entry of entries) {
    for (const diagnostic of entry.diagnostics) {
      const line = formatDiagnostic(entry.file, diagnostic, style);
      if (diagnostic.file !== undefined && printed.has(line)) continue;
      printed.add(line);
      io.stdout.write(line);
      if (diagnostic.severity === 'error') errors++;
      if (diagnostic.severity === 'warning') warnings++;
    }
    if (entry.valid) io.stdout.write(`${style.green('✔')} ${entry.kind === 'campaign' ? 'the campaign ' : ''}${entry.file} is valid\n`);
  }
  const invalid = entries.filter((entry) => !entry.valid).length;
  const campaigns = entries.filter((entry) => entry.kind === 'campaign').length;
  const checked = campaigns === 0 ? `${entries.length} file(s)` : `${entries.length - campaigns} file(s) and ${campaigns} campaign(s)`;
  io.stdout.write(`${checked} checked: ${invalid} invalid, ${errors} error(s), ${warnings} warning(s)\n`);
}
