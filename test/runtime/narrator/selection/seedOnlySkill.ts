// Test helper: a skill as a narrator sees it, written with only the seed's manifest fields (no keywords, no examples) and one script named main.
import type { NarratorSkill } from '../../../../src/runtime/skills/skillTypes.js';

export function seedOnlySkill(name: string, description: string, capabilities: string[], scriptDescription: string): NarratorSkill {
  return {
    name,
    displayName: name,
    description,
    capabilities,
    priority: 50,
    health: 'healthy',
    scripts: [{ name: 'main', toolPath: `skills/${name}/scripts/main.js`, description: scriptDescription, inputSchema: { type: 'object', properties: {} } }],
  };
}
