// What the Inspector shows for a skill script: its label, root, timeout and inputSchema, and the ready-made inputs (samples/*.json, the last input used).
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { InputChoice } from '../../protocol/inspectorMessages.js';
import { sampleInputFiles } from '../../runtime/skills/skillSamples.js';
import type { Skill, SkillScript } from '../../runtime/skills/skillTypes.js';
import type { SkillsService } from '../skills/skillsService.js';
import type { LastInputs } from './lastInputs.js';

/** A script the Inspector runs; `input` is what Rerun uses. */
export interface LiveTarget {
  readonly kind: 'live';
  readonly label: string;
  readonly scriptPath: string;
  readonly root: string;
  readonly timeoutMs?: number | undefined;
  readonly inputSchema?: Record<string, unknown> | undefined;
  readonly input: Record<string, unknown>;
  readonly inputChoices: readonly InputChoice[];
}

/** The last input used, the skill's sample inputs and an empty object, in that order. */
export async function inputChoices(skill: Skill, script: SkillScript, lastInputs: LastInputs): Promise<InputChoice[]> {
  const samples = await Promise.all(
    (await sampleInputFiles(skill.directory)).map(async (file): Promise<InputChoice | undefined> => {
      const text = await readFile(file, 'utf8').catch(() => undefined);
      return text === undefined ? undefined : { label: `Sample: ${path.basename(file)}`, detail: path.join('samples', path.basename(file)), text };
    }),
  );
  const last = lastInputs.get(script.path);
  return [
    ...(last ? [{ label: 'The last input used', text: JSON.stringify(last) }] : []),
    ...samples.filter((sample): sample is InputChoice => sample !== undefined),
    { label: 'An empty input {}', text: '{}' },
  ];
}

export async function liveTarget(
  context: { readonly skills: SkillsService; readonly lastInputs: LastInputs },
  skill: Skill,
  script: SkillScript,
  input: Record<string, unknown>,
): Promise<LiveTarget> {
  return {
    kind: 'live',
    label: `${skill.name}/${script.name}`,
    scriptPath: script.path,
    root: context.skills.root ?? skill.directory,
    timeoutMs: script.timeoutMs,
    inputSchema: script.inputSchema,
    input,
    inputChoices: await inputChoices(skill, script, context.lastInputs),
  };
}

/** The skill and script whose file is `scriptPath` (a real path, as skills list them), once the skills are loaded. */
export async function findScript(skills: SkillsService, scriptPath: string): Promise<{ readonly skill: Skill; readonly script: SkillScript } | undefined> {
  await skills.ready();
  const wanted = path.resolve(scriptPath);
  for (const skill of skills.skills) {
    const script = skill.scripts.find((candidate) => candidate.path === wanted);
    if (script) return { skill, script };
  }
  return undefined;
}
