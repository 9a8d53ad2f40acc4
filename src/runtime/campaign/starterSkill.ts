// The complete starter campaign's own skill, skills/gullhaven: the island's clock (hour, tide, fog) and the saltlight the player carries, the state its later beats wait for.
import { SKILL_SDK_SOURCE } from '../skills/skillSdkSource.js';
import type { StarterFile } from './starterCampaigns.js';

const FOLDER = 'skills/gullhaven';

const MANIFEST = {
  name: 'gullhaven',
  displayName: 'Gullhaven',
  version: '1.0.0',
  description:
    'Time passing on Gullhaven (the hour, the tide and the fog: world.time, world.tide, world.fog) and the measure of saltlight the player carries (player.saltlight).',
  author: 'Narratoria',
  license: 'MIT',
  capabilities: ['time', 'tide', 'fog', 'saltlight'],
  keywords: ['wait', 'dusk', 'night', 'dawn', 'tide', 'fog', 'saltlight', 'jar'],
  priority: 40,
  scripts: [
    {
      name: 'wait',
      path: 'scripts/wait.js',
      description:
        'Time passes: day, dusk, night and dawn, the tide from high to lowest, and the fog rising each night. { until? } waits for an hour or a tide. Records world.time, world.tide and world.fog.',
      inputSchema: 'scripts/wait.input.schema.json',
      examples: ['I wait until dusk', 'I wait for the lowest tide', 'I wait for nightfall', 'I rest until dawn', 'I watch the tide ebb'],
      timeout: 10000,
    },
    {
      name: 'fill',
      path: 'scripts/fill.js',
      description: 'The player seals a measure of saltlight in a jar (at most one, as the rules say). Records player.saltlight.',
      examples: ['I fill a jar with saltlight', 'I take the jar of saltlight', 'I render saltlight from sea salt'],
      timeout: 10000,
    },
  ],
};

const WAIT_INPUT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    until: {
      description: 'What to wait for: an hour or a tide. Without it, time moves on by one step.',
      enum: ['day', 'dusk', 'night', 'dawn', 'high tide', 'low tide', 'lowest tide'],
    },
  },
  additionalProperties: false,
};

const WAIT_SCRIPT = `#!/usr/bin/env node
// gullhaven/wait: time passes on Gullhaven (the hour, the tide, the fog, Brother Alder's whereabouts), as Narratoria protocol v0 NDJSON.
'use strict';

const { InputError, emitStatePatch, isObject, runTool } = require('../lib/narratoria-skill-sdk.js');

// One step is a part of the day. The tide has five states, so it meets each hour in turn.
const TIMES = ['day', 'dusk', 'night', 'dawn'];
const TIDES = ['high', 'ebbing', 'low', 'lowest', 'flooding'];
// world/rules.md: the fog rises one step every night (clear, haze, thick, drowning); here it also thins at daybreak.
const FOGS = ['clear', 'haze', 'thick', 'drowning'];
const ALDER = { day: 'tending the tide chapel', dusk: 'preaching in the square', night: 'keeping vigil at the chapel', dawn: 'walking the tideline' };
const GOALS = {
  day: (at) => at.time === 'day',
  dusk: (at) => at.time === 'dusk',
  night: (at) => at.time === 'night',
  dawn: (at) => at.time === 'dawn',
  'high tide': (at) => at.tide === 'high',
  'low tide': (at) => at.tide === 'low' || at.tide === 'lowest',
  'lowest tide': (at) => at.tide === 'lowest',
};
// Every goal comes round within 20 steps (4 hours by 5 tides).
const MAX_STEPS = 20;

const atStep = (step) => ({ time: TIMES[step % TIMES.length], tide: TIDES[step % TIDES.length] });

runTool({ name: 'gullhaven', inputExample: '{"until":"dusk"}' }, ({ input, state }) => {
  const until = input.until;
  if (until !== undefined && !Object.hasOwn(GOALS, until)) {
    throw new InputError(\`input.until must be one of \${Object.keys(GOALS).join(', ')}\`);
  }
  const world = isObject(state.world) ? state.world : {};
  let step = Number.isSafeInteger(world.step) && world.step >= 0 ? world.step : 0;
  let fog = FOGS.includes(world.fog) ? FOGS.indexOf(world.fog) : 1;
  let waited = 0;
  do {
    step++;
    waited++;
    const at = atStep(step);
    if (at.time === 'night') fog = Math.min(fog + 1, FOGS.length - 1);
    if (at.time === 'day') fog = Math.max(fog - 1, 0);
  } while (until !== undefined && !GOALS[until](atStep(step)) && waited < MAX_STEPS);
  const at = atStep(step);
  const clock = { step, time: at.time, tide: at.tide, fog: FOGS[fog] };
  emitStatePatch({ world: clock, npcs: { alder: { whereabouts: ALDER[at.time] } } });
  const drowning = clock.fog === 'drowning' ? ' The fog is at drowning: the dead walk the streets until a saltlight is lit.' : '';
  return {
    summary: \`It is \${at.time} on Gullhaven. The tide is \${at.tide}, the fog \${clock.fog}; Brother Alder is \${ALDER[at.time]}.\${drowning}\`,
    output: { ...clock, waited, alder: ALDER[at.time] },
  };
});
`;

const FILL_SCRIPT = `#!/usr/bin/env node
// gullhaven/fill: the player seals a measure of saltlight in a jar (world/rules.md: at most one), as Narratoria protocol v0 NDJSON.
'use strict';

const { emitStatePatch, isObject, runTool } = require('../lib/narratoria-skill-sdk.js');

const MAX_MEASURES = 1;

runTool({ name: 'gullhaven' }, ({ state }) => {
  const player = isObject(state.player) ? state.player : {};
  const carried = Number.isSafeInteger(player.saltlight) && player.saltlight > 0 ? player.saltlight : 0;
  if (carried >= MAX_MEASURES) {
    return { summary: 'Your jar already holds a measure of saltlight, as much as anyone may carry.', output: { saltlight: carried, added: 0 } };
  }
  emitStatePatch({ player: { saltlight: carried + 1 } });
  return {
    summary: 'You seal a measure of saltlight in a jar. It glows through the glass like a coal under ash.',
    output: { saltlight: carried + 1, added: 1 },
  };
});
`;

/** skills/gullhaven: its manifest, its two scripts, the wait input's schema and the skill SDK its scripts require. */
export function starterSkillFiles(): StarterFile[] {
  return [
    { path: `${FOLDER}/skill.json`, text: `${JSON.stringify(MANIFEST, null, 2)}\n` },
    { path: `${FOLDER}/scripts/wait.js`, text: WAIT_SCRIPT },
    { path: `${FOLDER}/scripts/wait.input.schema.json`, text: `${JSON.stringify(WAIT_INPUT_SCHEMA, null, 2)}\n` },
    { path: `${FOLDER}/scripts/fill.js`, text: FILL_SCRIPT },
    { path: `${FOLDER}/lib/narratoria-skill-sdk.js`, text: SKILL_SDK_SOURCE },
  ];
}
