// A story-turn launch of the `narratoria` debug type: "playerInput" or "playerInputs" played in the campaign at "root", from a new session or a copy of a saved one; checked, with clear errors.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCampaign } from '../../campaign/index.js';
import { CampaignStory } from '../../campaign/play/campaignStory.js';
import { chunkCampaignLore } from '../../campaign/lore/loreFiles.js';
import type { Plan } from '../../contractTypes/plan.js';
import { readSessionFile, sessionFile, sessionIdProblem } from '../../session/sessionStore.js';
import type { SessionFile } from '../../session/playSession.js';
import { isolatedScope, sessionScope, type SkillDataScope } from '../../skills/skillDataScope.js';
import type { BeatCatalog, BeatLocation } from '../beatBreakpoints.js';

/** The launch arguments of a story turn (the rest of NarratoriaLaunchArguments applies as for a plan). */
export interface StoryLaunchArguments {
  /** One player input played as a turn of the campaign at "root". */
  readonly playerInput?: unknown;
  /** Several inputs played in order. */
  readonly playerInputs?: unknown;
  /** A saved play-through to start from: its name under .narratoria/sessions, or the path of a session file. */
  readonly session?: unknown;
  /** A new session's seed (a saved session keeps its own). */
  readonly seed?: unknown;
}

/** A resolved story launch: the campaign, its beats for breakpoints, the inputs and where the session starts. */
export interface StoryLaunchTarget {
  readonly kind: 'story';
  readonly root: string;
  readonly story: CampaignStory;
  readonly catalog: BeatCatalog;
  readonly inputs: readonly string[];
  /** The saved session played from (on a copy), if any. */
  readonly session: SavedSession | undefined;
  readonly seed: number | undefined;
  /** A new session's state before its opening ("state"). */
  readonly initialState: Record<string, unknown>;
  /** No plan is debugged: an empty one stands for it. */
  readonly plan: Plan;
  readonly text: string;
}

/** A saved play-through a story launch starts from. */
export interface SavedSession {
  readonly file: string;
  /** How the Debug Console names it. */
  readonly label: string;
  readonly saved: SessionFile;
  /** Where its skills keep their data (copied for the launch). */
  readonly dataRoot: string;
}

/** Refuses the launch with a message for the user (launchArguments' LaunchError, passed in so the two files do not import each other). */
type Fail = (message: string) => never;

/** Where a story launch is resolved. */
export interface StoryLaunchContext {
  /** The campaign folder. */
  readonly root: string;
  /** A new session's state before its opening ("state"), {} when not given. */
  readonly initialState: Record<string, unknown>;
  /** A launch path made absolute (against "cwd" or the workspace folder). */
  readonly resolve: (file: string) => string;
  readonly fail: Fail;
}

/** True when the arguments ask for a story turn. */
export function isStoryLaunch(args: StoryLaunchArguments): boolean {
  return args.playerInput !== undefined || args.playerInputs !== undefined;
}

/** Checks a story launch's arguments and reads the campaign and the saved session they name. */
export async function resolveStoryLaunch(
  args: StoryLaunchArguments & { readonly plan?: string; readonly replay?: string; readonly script?: string; readonly state?: string },
  context: StoryLaunchContext,
): Promise<StoryLaunchTarget> {
  const { root, initialState } = context;
  const fail: Fail = context.fail;
  if (args.plan !== undefined || args.replay !== undefined || args.script !== undefined)
    fail('"playerInput" plays a story turn of the campaign at "root": leave out "plan", "replay" and "script"');
  if (args.playerInput !== undefined && args.playerInputs !== undefined) fail('set "playerInput" (one turn) or "playerInputs" (several), not both');
  const inputs = inputsOf(args, fail);
  if (args.seed !== undefined && (typeof args.seed !== 'number' || !Number.isInteger(args.seed) || args.seed < 0))
    fail('"seed" must be a whole number (0 or more)');
  const campaign = await loadCampaign(root);
  if (!campaign?.manifest) fail(`"root": ${root} holds no campaign (no manifest.json there). A story turn is debugged in a campaign folder; set "root" to it.`);
  const lore = await chunkCampaignLore(root);
  const story = CampaignStory.of(campaign, lore.chunks);
  const beatsFile = campaign.beats?.file.path;
  const document = beatsFile ? campaign.documents.get(beatsFile) : undefined;
  const beats: BeatLocation[] = (campaign.beats?.beats ?? []).flatMap((beat) => {
    if (beat.id === undefined) return [];
    const range = document?.rangeOf(beat.at.pointer);
    return [
      {
        id: beat.id,
        title: beat.title ?? beat.id,
        file: path.join(root, ...beat.at.file.split('/')),
        range: range ? { line: range.start.line, column: range.start.column, endLine: range.end.line, endColumn: range.end.column } : undefined,
      },
    ];
  });
  const session = args.session !== undefined ? await savedSession(args.session, context) : undefined;
  if (session && args.state !== undefined) fail('"state" starts a new session: leave it out with "session" (the saved session has its own state)');
  if (session && args.seed !== undefined) fail('"seed" starts a new session: leave it out with "session" (the saved session keeps its own seed)');
  const plan: Plan = { requestId: 'story-turn', tools: [] };
  return {
    kind: 'story',
    root,
    story,
    catalog: { file: beatsFile ? path.join(root, ...beatsFile.split('/')) : undefined, beats },
    inputs,
    session,
    seed: typeof args.seed === 'number' ? args.seed : undefined,
    initialState,
    plan,
    text: JSON.stringify(plan, null, 2),
  };
}

function inputsOf(args: StoryLaunchArguments, fail: Fail): string[] {
  if (args.playerInput !== undefined) {
    if (typeof args.playerInput !== 'string' || args.playerInput.trim() === '') fail('"playerInput" must be what the player types (a non-empty string)');
    return [args.playerInput];
  }
  const inputs = args.playerInputs;
  if (!Array.isArray(inputs) || inputs.length === 0)
    fail('"playerInputs" must be a list of what the player types, one turn each (a non-empty array of strings)');
  const bad = inputs.findIndex((input) => typeof input !== 'string' || input.trim() === '');
  if (bad >= 0) fail(`"playerInputs"[${bad}] must be a non-empty string`);
  return inputs as string[];
}

/** The saved session "session" names: a name under .narratoria/sessions, or a session file (a path). */
async function savedSession(value: unknown, context: StoryLaunchContext): Promise<SavedSession> {
  const { root, resolve } = context;
  const fail: Fail = context.fail;
  if (typeof value !== 'string' || value.trim() === '') fail('"session" must name a saved play-through (its name, or the path of its session.json)');
  const isPath = /[\\/]/.test(value) || value.endsWith('.json');
  if (!isPath) {
    const problem = sessionIdProblem(value);
    if (problem) fail(`"session": ${problem}`);
  }
  const file = isPath ? resolve(value) : sessionFile(root, value);
  const read = await readSessionFile(file);
  if (!read) fail(`"session": there is no saved play-through at ${file}${isPath ? '' : ` (narratoria sessions list shows the saved ones)`}`);
  if ('problem' in read) fail(`"session": ${file} ${read.problem}`);
  const ending = (read.session.state['campaign'] as { ending?: { title?: unknown } } | undefined)?.ending;
  if (ending)
    fail(`"session": ${file} has reached its ending ("${String(ending.title)}"): no turn plays after it. Start from a new session (leave out "session").`);
  // A named play-through keeps its data beside its file; an older session file, under its own id.
  const dataRoot = sessionScope(root, isPath ? read.session.sessionId : value).dataRoot;
  return { file, label: isPath ? file : `"${value}"`, saved: read.session, dataRoot };
}

/** Where a story launch plays: a folder of its own with the session file and its skills' data (copied from a saved session). */
export interface StoryWorkspace {
  /** The session file the turns are saved to (a copy: the saved one is never changed). */
  readonly file: string;
  readonly dataScope: SkillDataScope;
  /** Removes the folder. */
  dispose(): Promise<void>;
}

/** Makes the folder a story launch plays in: the saved session and its skills' data copied in, else an empty scope. */
export async function storyWorkspace(launch: StoryLaunchTarget): Promise<StoryWorkspace> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'narratoria-debug-story-'));
  try {
    const sessionId = launch.session?.saved.sessionId ?? 'debug';
    const dataScope = await isolatedScope(launch.root, sessionId, folder);
    const file = path.join(folder, 'session.json');
    if (launch.session) {
      await writeFile(file, JSON.stringify(launch.session.saved, null, 2));
      await cp(launch.session.dataRoot, dataScope.dataRoot, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
    return { file, dataScope, dispose: () => rm(folder, { recursive: true, force: true }) };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}
