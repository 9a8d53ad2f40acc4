// A skill's role in a plan from its capabilities (a roll, choices, a picture, or context), the role each phrase cue asks for, and the skill that narrates.
import type { NarratorSkill } from '../../skills/skillTypes.js';
import type { CueKind } from './cues.js';
import { patternNamed } from './namedPattern.js';
import { CAPABILITY_PATTERNS, SCRIPT_PATTERNS } from './selectionPatterns.js';
import type { Selection, SkillRole } from './selectionTypes.js';

/** The role of the skills each cue asks for. */
export const CUE_ROLES: Readonly<Record<CueKind, SkillRole>> = {
  chance: 'chance',
  past: 'context',
  opinion: 'context',
  standing: 'context',
  deed: 'context',
  price: 'context',
  distance: 'context',
  time: 'context',
  options: 'options',
  dialogue: 'options',
  appearance: 'visual',
};

const NARRATION = patternNamed(CAPABILITY_PATTERNS, 'narration');
const CHANCE = patternNamed(CAPABILITY_PATTERNS, 'chance');
const OPTIONS = patternNamed(CAPABILITY_PATTERNS, 'options');
const VISUAL = patternNamed(CAPABILITY_PATTERNS, 'visual');
const NARRATING_SCRIPT = patternNamed(SCRIPT_PATTERNS, 'narrating script');

const roles = new WeakMap<NarratorSkill, SkillRole>();

/** Where a skill goes in a plan, from its capabilities (dice -> chance, choices -> options, portrait -> visual, else context). */
export function roleOf(skill: NarratorSkill): SkillRole {
  let role = roles.get(skill);
  if (role === undefined) {
    role = roleOfCapabilities(skill);
    roles.set(skill, role);
  }
  return role;
}

function roleOfCapabilities(skill: NarratorSkill): SkillRole {
  if (skill.capabilities.some((capability) => CHANCE.test(capability))) return 'chance';
  if (skill.capabilities.some((capability) => OPTIONS.test(capability))) return 'options';
  if (skill.capabilities.some((capability) => VISUAL.test(capability))) return 'visual';
  return 'context';
}

export function isNarrator(skill: NarratorSkill): boolean {
  return skill.capabilities.some((capability) => NARRATION.test(capability));
}

/** The narrating skill of highest priority, and its script named like narrate (else its first). */
export function narratorOf(skills: readonly NarratorSkill[]): Selection['narrator'] {
  if (narrators.has(skills)) return narrators.get(skills);
  const found = findNarrator(skills);
  narrators.set(skills, found);
  return found;
}

/** The narrator of each skill set, once per set (undefined: the set has none). */
const narrators = new WeakMap<readonly NarratorSkill[], Selection['narrator']>();

function findNarrator(skills: readonly NarratorSkill[]): Selection['narrator'] {
  const narrator = skills
    .filter((skill) => skill.scripts.length > 0 && isNarrator(skill))
    .sort((left, right) => right.priority - left.priority || left.name.localeCompare(right.name))[0];
  if (!narrator) return undefined;
  return { skill: narrator, script: narrator.scripts.find((script) => NARRATING_SCRIPT.test(script.name)) ?? narrator.scripts[0]! };
}
