// `narratoria skills`: the discovered skills of a story (and the bundled ones), their scripts, config problems, health, and hints where a manifest gives the narrator little to go on.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { manifestHintsOfText, suggestedKeywords, type ManifestHint } from '../../runtime/skills/manifestHints.js';
import { SkillRegistry } from '../../runtime/skills/skillRegistry.js';
import { ExitCode, parseFormat, parseOptions, styler, toJson, UsageError, type CliIo } from '../cliSupport.js';

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
        health: status.health.state,
        scripts: skill.scripts.map((script) => ({ name: script.name, toolPath: script.toolPath, executable: script.executable, declared: script.declared, timeoutMs: script.timeoutMs })),
        problems: skill.problems,
        ...narratorHints(skill.directory),
      };
    });
    if (format === 'json') {
      io.stdout.write(toJson({ root, skills, problems: registry.problems }));
    } else {
      const style = styler(io.stdout, io.env);
      for (const skill of skills) {
        const health = skill.health === 'healthy' ? style.green(skill.health) : style.yellow(skill.health);
        io.stdout.write(`${style.bold(skill.displayName)} ${style.dim(`${skill.name} ${skill.version}`)} ${health}${skill.usable ? '' : style.red(' unusable')} — ${skill.description}\n`);
        io.stdout.write(style.dim(`  capabilities: ${skill.capabilities.join(', ') || 'none'}; priority ${skill.priority}; ${skill.directory}\n`));
        for (const script of skill.scripts) io.stdout.write(`  • ${script.toolPath}${script.declared ? '' : style.dim(' (not in skill.json)')}\n`);
        for (const problem of skill.problems) io.stdout.write(`  ${problem.severity === 'error' ? style.red('✖') : style.yellow('⚠')} ${problem.code}: ${problem.message}\n`);
        for (const hint of skill.hints) io.stdout.write(`  ${style.cyan('ℹ')} ${hint.code}: ${hint.message}${hint.line ? style.dim(` (skill.json:${hint.line}:${hint.column})`) : ''}\n`);
        if (skill.hints.length > 0 && skill.suggestedKeywords.length > 0) io.stdout.write(style.dim(`    keywords a player might use: "keywords": ${JSON.stringify(skill.suggestedKeywords)}\n`));
      }
      for (const problem of registry.problems) io.stdout.write(`${problem.severity === 'error' ? style.red('✖') : style.yellow('⚠')} ${problem.code}: ${problem.message}${problem.file ? style.dim(` (${problem.file})`) : ''}\n`);
      io.stdout.write(`${skills.length} skill(s), ${registry.problems.length} problem(s) outside them\n`);
    }
    return ExitCode.Success;
  } finally {
    registry.dispose();
  }
}

/** The skill.json's hints for the narrator (with 1-based positions) and suggested keywords; none when the file cannot be read. */
function narratorHints(directory: string): { hints: { code: ManifestHint['code']; message: string; line?: number; column?: number }[]; suggestedKeywords: string[] } {
  let text: string;
  try {
    text = readFileSync(path.join(directory, 'skill.json'), 'utf8');
  } catch {
    return { hints: [], suggestedKeywords: [] };
  }
  const hints = manifestHintsOfText(text).map((hint) => ({ code: hint.code, message: hint.message, ...(hint.range ? { line: hint.range.start.line, column: hint.range.start.column } : {}) }));
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
