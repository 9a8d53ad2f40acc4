// `narratoria skills`: lists a story's discovered skills (and the bundled ones) with their scripts, problems (file:line:column), health and manifest hints, as text or JSON.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { manifestHintsOfText, suggestedKeywords, type ManifestHint } from '../../runtime/skills/manifestHints.js';
import { SkillRegistry } from '../../runtime/skills/skillRegistry.js';
import { BROKEN_SKILL_LABEL, healthLabelOf, healthReasonOf } from '../../runtime/skills/skillHealthLabel.js';
import type { SkillHealthLabel } from '../../runtime/skills/skillTypes.js';
import { ExitCode, parseFormat, parseOptions, styler, toJson, UsageError, type CliIo, type Styler } from '../cliSupport.js';
import { skillProblemLine } from '../skillProblemLines.js';
import { plural } from '../../runtime/common/humanText.js';

/**
 * Health is one of healthy, degraded, unusable, disabled. A skill whose skill.json is broken is listed too, as unusable;
 * hints say where a manifest gives the narrator little to go on.
 */
export async function skillsCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, { root: { type: 'string' }, format: { type: 'string' }, 'no-bundled-skills': { type: 'boolean' } });
  if (positionals.length > 0) throw new UsageError(`skills takes no positional arguments (got "${positionals[0]}")`);
  const format = parseFormat(values.format);
  const root = path.resolve(io.cwd, values.root ?? '.');
  const extraSkillRoots = values['no-bundled-skills'] || !io.bundledSkillsDirectory ? [] : [io.bundledSkillsDirectory];
  const registry = await SkillRegistry.load({ root, extraSkillRoots, environment: io.env as Record<string, string | undefined> });
  try {
    const skills = registry.skills.map((skill) => {
      const status = registry.status(skill.name)!;
      return {
        name: skill.name,
        displayName: skill.displayName,
        version: skill.version,
        description: skill.description,
        directory: skill.directory,
        capabilities: skill.capabilities,
        priority: skill.priority,
        enabled: status.enabled,
        usable: status.usable,
        /** One of healthy, degraded, unusable, disabled: the word every view uses. */
        health: healthLabelOf(status),
        /** Why, when not plainly healthy ("" otherwise). */
        healthReason: healthReasonOf(status),
        /** The health state machine's state this session (docs/design-rules.md#skill-health). */
        healthState: status.health.state,
        scripts: skill.scripts.map((script) => ({
          name: script.name,
          toolPath: script.toolPath,
          executable: script.executable,
          declared: script.declared,
          timeoutMs: script.timeoutMs,
          ...(script.aliases ? { aliases: script.aliases } : {}),
          ...(script.missingInterpreter !== undefined ? { missingInterpreter: script.missingInterpreter } : {}),
        })),
        problems: skill.problems,
        ...narratorHints(skill.directory),
      };
    });
    // A skill whose skill.json does not load is listed too: unusable, with where its manifest is broken.
    const brokenSkills = registry.brokenSkills.map((broken) => ({
      name: broken.name,
      directory: broken.directory,
      manifestPath: broken.manifestPath,
      usable: false,
      health: BROKEN_SKILL_LABEL,
      healthReason: 'its skill.json does not load',
      problems: broken.problems,
    }));
    if (format === 'json') {
      io.stdout.write(toJson({ root, skills, brokenSkills, problems: registry.problems }));
    } else {
      const style = styler(io.stdout, io.env);
      for (const skill of skills) {
        const reason = skill.health === 'healthy' || skill.healthReason === '' ? '' : style.dim(` (${skill.healthReason})`);
        io.stdout.write(
          `${style.bold(skill.displayName)} ${style.dim(`${skill.name} ${skill.version}`)} ${healthWord(skill.health, style)}${reason} — ${skill.description}\n`,
        );
        io.stdout.write(style.dim(`  capabilities: ${skill.capabilities.join(', ') || 'none'}; priority ${skill.priority}; ${skill.directory}\n`));
        for (const script of skill.scripts) {
          const aliases = script.aliases ? style.dim(` (also ${script.aliases.join(', ')})`) : '';
          io.stdout.write(`  • ${script.toolPath}${aliases}${script.declared ? '' : style.dim(' (not in skill.json)')}\n`);
        }
        for (const problem of skill.problems) io.stdout.write(`  ${skillProblemLine(problem, io.cwd, style)}`);
        for (const hint of skill.hints)
          io.stdout.write(`  ${style.cyan('ℹ')} ${hint.code}: ${hint.message}${hint.line ? style.dim(` (skill.json:${hint.line}:${hint.column})`) : ''}\n`);
        if (skill.hints.length > 0 && skill.suggestedKeywords.length > 0)
          io.stdout.write(style.dim(`    keywords a player might use: "keywords": ${JSON.stringify(skill.suggestedKeywords)}\n`));
      }
      for (const broken of brokenSkills) {
        io.stdout.write(`${style.bold(broken.name)} ${healthWord(broken.health, style)}${style.dim(` (${broken.healthReason})`)} — ${broken.directory}\n`);
        for (const problem of broken.problems) io.stdout.write(`  ${skillProblemLine(problem, io.cwd, style)}`);
      }
      const inSkills = new Set([...skills.flatMap((skill) => skill.problems), ...brokenSkills.flatMap((broken) => broken.problems)]);
      const outside = registry.problems.filter((problem) => !inSkills.has(problem));
      for (const problem of outside) io.stdout.write(skillProblemLine(problem, io.cwd, style));
      const overridden = registry.overridden;
      if (overridden.length > 0) {
        const names = overridden.map((skill) => skill.name).join(', ');
        io.stdout.write(style.dim(`the story's own copies replace ${plural(overridden.length, 'bundled skill')}: ${names}\n`));
      }
      const unusable = skills.filter((skill) => skill.health === 'unusable').length + brokenSkills.length;
      const brokenText = brokenSkills.length > 0 ? ` (${brokenSkills.length} with a broken skill.json)` : '';
      io.stdout.write(`${skills.length + brokenSkills.length} skill(s), ${unusable} unusable${brokenText}, ${outside.length} problem(s) outside them\n`);
    }
    return ExitCode.Success;
  } finally {
    registry.dispose();
  }
}

/** A health word in its colour. */
function healthWord(label: SkillHealthLabel, style: Styler): string {
  switch (label) {
    case 'healthy':
      return style.green(label);
    case 'degraded':
      return style.yellow(label);
    case 'unusable':
      return style.red(label);
    case 'disabled':
      return style.dim(label);
  }
}

/** The skill.json's hints for the narrator (with 1-based positions) and suggested keywords; none when the file cannot be read. */
function narratorHints(directory: string): {
  hints: { code: ManifestHint['code']; message: string; line?: number; column?: number }[];
  suggestedKeywords: string[];
} {
  let text: string;
  try {
    text = readFileSync(path.join(directory, 'skill.json'), 'utf8');
  } catch {
    return { hints: [], suggestedKeywords: [] };
  }
  const hints = manifestHintsOfText(text).map((hint) => ({
    code: hint.code,
    message: hint.message,
    ...(hint.range ? { line: hint.range.start.line, column: hint.range.start.column } : {}),
  }));
  let keywords: string[] = [];
  if (hints.length > 0) {
    try {
      keywords = suggestedKeywords(JSON.parse(text));
    } catch {
      // Unparseable manifests have their own problems listed.
    }
  }
  return { hints, suggestedKeywords: keywords };
}
