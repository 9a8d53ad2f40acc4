// The index of a skill set and its candidates, built once: cached by the skill array, then by what the skills say (a turn, or a replan without a skill, rebuilds its array), for the tuning in force.
import type { NarratorSkill } from '../../skills/skillTypes.js';
import { SkillIndex, type IndexedSkill } from './skillIndex.js';
import { tuningVersion } from './selectionTuning.js';
import { isNarrator, roleOf } from './skillRoles.js';
import type { SkillRole } from './selectionTypes.js';

/** Skill sets whose index is kept by what they say; a comparison in meaning keeps as many (meaningFallback.ts). */
export const RECENT_INDEXES = 8;

const indexes = new WeakMap<readonly NarratorSkill[], SkillIndex>();
/** Recent indexes by what their skills say. */
const recentIndexes = new Map<string, SkillIndex>();
const cachedVersion = new WeakMap<SkillIndex, number>();
/** A number per distinct content of a skill (what the index reads), computed once per skill object. */
const contentIds = new Map<string, number>();
const contentIdOfSkill = new WeakMap<NarratorSkill, number>();
/** Contents remembered before starting afresh (ids keep counting up, so an old id never means a new content). */
const CONTENTS_KEPT = 1024;
let nextContentId = 0;

/** A number for what a skill says (everything the index reads): the same for two skill objects that say the same. */
export function contentIdOf(skill: NarratorSkill): number {
  let id = contentIdOfSkill.get(skill);
  if (id === undefined) {
    const scripts = skill.scripts.map((script) => [script.name, script.toolPath, script.description ?? '', script.examples ?? []]);
    const content = JSON.stringify([
      skill.name,
      skill.displayName,
      skill.description,
      skill.capabilities,
      skill.keywords ?? [],
      skill.health,
      scripts,
      skill.prompt ?? '',
    ]);
    id = contentIds.get(content);
    if (id === undefined) {
      if (contentIds.size >= CONTENTS_KEPT) contentIds.clear();
      id = nextContentId++;
      contentIds.set(content, id);
    }
    contentIdOfSkill.set(skill, id);
  }
  return id;
}

/** The index of a skill set: cached by the array, then by what the skills say. */
export function indexOf(skills: readonly NarratorSkill[]): SkillIndex {
  const cached = indexes.get(skills);
  if (cached && cachedVersion.get(cached) === tuningVersion()) return cached;
  // Everything the index reads: a keyword or a script description added by the author makes a new index.
  const key = `${tuningVersion()}:${skills.map(contentIdOf).join(',')}`;
  let index = recentIndexes.get(key);
  if (index) {
    recentIndexes.delete(key);
  } else {
    index = new SkillIndex(skills);
    cachedVersion.set(index, tuningVersion());
    if (recentIndexes.size >= RECENT_INDEXES) recentIndexes.delete(recentIndexes.keys().next().value!);
  }
  recentIndexes.set(key, index);
  indexes.set(skills, index);
  return index;
}

/** A skill selection may choose (it has scripts and does not narrate): its place in the index, its role, and its name's rank (for ties). */
export interface Candidate {
  readonly entry: IndexedSkill;
  readonly position: number;
  readonly role: SkillRole;
  /** Its place among the candidates' names in alphabetical order (the last tie-break). */
  readonly nameRank: number;
}

const candidates = new WeakMap<SkillIndex, readonly Candidate[]>();

/** The candidates of an index, once per index. */
export function candidatesOf(index: SkillIndex): readonly Candidate[] {
  let found = candidates.get(index);
  if (!found) {
    const chosen = index.skills
      .map((entry, position) => ({ entry, position }))
      .filter(({ entry }) => entry.skill.scripts.length > 0 && !isNarrator(entry.skill));
    const names = [...new Set(chosen.map(({ entry }) => entry.skill.name))].sort((left, right) => left.localeCompare(right));
    const rank = new Map(names.map((name, position) => [name, position]));
    found = chosen.map(({ entry, position }) => ({ entry, position, role: roleOf(entry.skill), nameRank: rank.get(entry.skill.name)! }));
    candidates.set(index, found);
  }
  return found;
}

const ranked = new WeakMap<SkillIndex, readonly Candidate[]>();

/** The candidates of an index by priority (highest first), then by name: the order of ties in selection's ranking, once per index. */
export function rankedCandidatesOf(index: SkillIndex): readonly Candidate[] {
  let found = ranked.get(index);
  if (!found) {
    found = [...candidatesOf(index)].sort((left, right) => right.entry.skill.priority - left.entry.skill.priority || left.nameRank - right.nameRank);
    ranked.set(index, found);
  }
  return found;
}
