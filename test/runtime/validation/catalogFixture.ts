// Test helper: a temporary story with the real dice-roller and small fixture skills, discovered into a SkillCatalog with session status.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createSkillCatalog, type SkillCatalog } from '../../../src/runtime/skills/skillCatalog.js';
import { discoverSkills } from '../../../src/runtime/skills/skillDiscovery.js';
import { createTempStory, DONE_SCRIPT, type TempStory } from '../skills/skillFixture.js';

const repository = path.resolve(import.meta.dirname, '../../..');

export const ROLL = 'skills/dice-roller/scripts/roll.js';
export const WEATHER = 'skills/weather/scripts/set.js';
/** In weather's scripts/ but not declared in its skill.json (a catalog script with declared: false). */
export const WEATHER_EXTRA = 'skills/weather/scripts/extra.js';
/** In weather's directory but not a script at all (found through skillContaining). */
export const WEATHER_HELPER = 'skills/weather/lib/helper.js';
/** A script of "lantern", a skill the user disabled. */
export const LANTERN = 'skills/lantern/scripts/light.js';
/** A script of "oracle", a skill in permanentFailure. */
export const ORACLE = 'skills/oracle/scripts/ask.js';

/** The input schema of weather/set: an enum, a const, bounds, a nested object and a required property. */
export const weatherInputSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://narratoria.dev/test/weather-set.input.schema.json',
  type: 'object',
  required: ['sky'],
  additionalProperties: false,
  properties: {
    sky: { enum: ['clear', 'rain', 'storm'] },
    mode: { const: 'instant' },
    intensity: { type: 'integer', minimum: 1, maximum: 10 },
    label: { type: 'string', minLength: 1 },
    options: { type: 'object', properties: { fade: { type: 'boolean' } } },
  },
};

/** A story and the catalog of its skills. */
export interface CatalogStory {
  readonly story: TempStory;
  readonly root: string;
  readonly catalog: SkillCatalog;
}

/**
 * Skills: dice-roller (copied from the repository), weather (declared set.js with an input schema,
 * undeclared scripts/extra.js, lib/helper.js), lantern (disabled) and oracle (permanentFailure).
 */
export async function createCatalogStory(): Promise<CatalogStory> {
  const story = createTempStory('narratoria-catalog-');
  fs.cpSync(path.join(repository, 'skills', 'dice-roller'), path.join(story.root, 'skills', 'dice-roller'), { recursive: true });
  story.skill(
    'weather',
    { scripts: [{ name: 'set', path: 'scripts/set.js', inputSchema: 'scripts/set.input.schema.json' }] },
    {
      'scripts/set.js': DONE_SCRIPT,
      'scripts/set.input.schema.json': weatherInputSchema,
      'scripts/extra.js': DONE_SCRIPT,
      'lib/helper.js': DONE_SCRIPT,
    },
  );
  story.skill('lantern', { scripts: [{ name: 'light', path: 'scripts/light.js' }] }, { 'scripts/light.js': DONE_SCRIPT });
  story.skill('oracle', { scripts: [{ name: 'ask', path: 'scripts/ask.js' }] }, { 'scripts/ask.js': DONE_SCRIPT });
  const { skills } = await discoverSkills({ root: story.root });
  const catalog = createSkillCatalog(skills, (name) => {
    if (name === 'lantern') return { health: 'healthy', enabled: false };
    if (name === 'oracle') return { health: 'permanentFailure', enabled: true };
    return undefined;
  });
  return { story, root: story.root, catalog };
}
