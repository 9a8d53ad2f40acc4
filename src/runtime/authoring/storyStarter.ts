// The starter files `narratoria init` writes beside the sample skills: the story's README and an example playtest. Text only; writes nothing.

/** Where the example playtest goes in a new story. */
export const STARTER_PLAYTEST = 'playtests/first-steps.playtest.json';

/**
 * A playtest that passes with the sample skills and the pattern narrator: a seeded dice check, then a look around.
 * Checked by `narratoria test` in test/cli/init.test.ts.
 */
export function starterPlaytestText(): string {
  const playtest = {
    name: 'First steps: a seeded dice check, then a look around',
    seed: 7,
    turns: [
      {
        input: 'I roll to pick the lock',
        expect: {
          skills: ['dice-roller', 'storyteller'],
          outcome: 'success',
          state: ['dice.lastRoll.total >= 1'],
          events: [{ type: 'ui_event', event: 'dice_roll' }],
          narration: { contains: ['lock'] },
        },
      },
      {
        input: 'I look around',
        expect: { notSkills: ['dice-roller'], outcome: 'success' },
      },
    ],
  };
  return `${JSON.stringify(playtest, null, 2)}\n`;
}

/** The story's README.md: what each folder holds and the commands to try first. */
export function starterReadmeText(storyName: string, examplePlan: string): string {
  return `# ${storyName}

A Narratoria story, made by \`narratoria init\`.

- \`skills/\`: the skills the narrator chooses from, one folder each: a \`skill.json\` manifest, a \`prompt.md\`
  and scripts that speak the Narratoria NDJSON protocol. These are the sample skills: change them or add your own.
- \`plans/\`: plans (\`*.plan.json\`), the skill scripts to run and in what order. The example,
  \`${examplePlan}\`, rolls a die, then narrates the outcome.
- \`playtests/\`: playtests (\`*.playtest.json\`), seeded play-throughs with what each turn must do.
- \`.narratoria/\`: written as you play: the saved session and a record of every run.

## Try it

Run these in this folder: play the story, play its playtests, check the example plan, run it.

\`\`\`bash
narratoria play       # type what you do ("I look around"), /help for more, /quit to leave
narratoria test       # play the playtests in playtests/
narratoria validate ${examplePlan}
narratoria run ${examplePlan}
\`\`\`

\`narratoria <command> --help\` lists a command's flags. In VS Code, open this folder: the Skills view, the play
panel (Narratoria: Open Play Panel) and the Testing view work on it.
`;
}
