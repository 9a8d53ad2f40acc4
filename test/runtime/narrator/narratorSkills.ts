// Test helper: NarratorSkill descriptions of the sample skills (the shape the registry hands to narrators).
import type { NarratorSkill } from '../../../src/runtime/skills/skillTypes.js';

function skill(name: string, capabilities: string[], priority: number, scripts: string[]): NarratorSkill {
  return {
    name,
    displayName: name,
    description: `${name} skill`,
    capabilities,
    priority,
    health: 'healthy',
    scripts: scripts.map((script) => ({ name: script, toolPath: `skills/${name}/scripts/${script}.js` })),
  };
}

export const sampleSkills: readonly NarratorSkill[] = [
  skill('dice-roller', ['dice', 'chance', 'check'], 60, ['roll']),
  skill('storyteller', ['narration', 'description'], 50, ['narrate']),
  skill('memory', ['memory', 'recall'], 50, ['store', 'recall']),
  skill('reputation', ['reputation', 'faction', 'standing'], 50, ['update', 'query']),
  skill('player-choices', ['choices', 'dialogue', 'decision'], 50, ['offer']),
  skill('character-portraits', ['portrait', 'image', 'character'], 40, ['portrait']),
  skill('npc-perception', ['npc', 'perception', 'social'], 50, ['adjust', 'query']),
];

export { skill as narratorSkill };
