// Reads the model's parts from parsed campaign files: beats with their links, NPCs with their paths, sidecars. Lenient (a file that fails its schema still gives what it has); pure.
import * as path from 'node:path';
import { pointerFromPath } from '../validation/jsonLocator.js';
import type { BeatLink, BeatPriority, CampaignBeat, CampaignBeats, CampaignFile, CampaignNpc, NpcMention, PathLink, SidecarMeta } from './campaignModel.js';

const PRIORITIES: ReadonlySet<string> = new Set(['critical', 'high', 'medium', 'low', 'optional']);

/** A `secrets` value read as a path: one word ending in .md (FR-015 and the npc-profile contract). */
const SECRETS_PATH = /^[^\s/\\][^\s]*\.md$/i;

/** The value as a plain object, or undefined. */
export function asRecord(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A path as written in a campaign file, campaign-relative with / separators, resolved against `base` (a campaign-relative folder). */
export function campaignPath(written: string, base = ''): string {
  const slashed = written.replace(/\\/g, '/');
  return path.posix.normalize(base === '' ? slashed : `${base}/${slashed}`).replace(/^\.\//, '');
}

/** The beats of plot/beats.json, with every link, NPC mention and path each names, at their pointers. */
export function readBeats(file: CampaignFile, value: unknown): CampaignBeats {
  const list = asRecord(value)?.['beats'];
  return { file, beats: Array.isArray(list) ? list.map((item, index) => readBeat(file.path, item, index)) : [] };
}

function readBeat(file: string, item: unknown, index: number): CampaignBeat {
  const beat = asRecord(item) ?? {};
  const at = (...segments: (string | number)[]): string => pointerFromPath(['beats', index, ...segments]);
  const conditions = asRecord(beat['conditions']) ?? {};
  const links: BeatLink[] = [];
  const link = (kind: BeatLink['kind'], target: unknown, pointer: string): void => {
    if (typeof target === 'string') links.push({ kind, target, at: { file, pointer } });
  };
  const requires = conditions['requires_beat'];
  if (Array.isArray(requires)) requires.forEach((target, position) => link('requires', target, at('conditions', 'requires_beat', position)));
  else link('requires', requires, at('conditions', 'requires_beat'));
  const any = conditions['requires_any_beat'];
  if (Array.isArray(any)) any.forEach((target, position) => link('requiresAny', target, at('conditions', 'requires_any_beat', position)));
  const outcomes = beat['outcomes'];
  if (Array.isArray(outcomes))
    outcomes.forEach((outcome, position) => link('triggers', asRecord(outcome)?.['triggers_beat'], at('outcomes', position, 'triggers_beat')));
  link('fallback', asRecord(beat['timeout'])?.['fallback_beat'], at('timeout', 'fallback_beat'));

  const npcMentions: NpcMention[] = [];
  for (const name of Object.keys(asRecord(conditions['npc_state']) ?? {})) {
    npcMentions.push({ name, kind: 'npcState', at: { file, pointer: at('conditions', 'npc_state', name), target: 'key' } });
  }
  const dialogue = beat['dialogue'];
  if (Array.isArray(dialogue)) {
    dialogue.forEach((line, position) => {
      const speaker = asString(asRecord(line)?.['speaker']);
      if (speaker !== undefined) npcMentions.push({ name: speaker, kind: 'dialogue', at: { file, pointer: at('dialogue', position, 'speaker') } });
    });
  }
  const paths: PathLink[] = [];
  for (const kind of ['music', 'background'] as const) {
    const written = asString(beat[kind]);
    if (written) paths.push({ kind, written, target: campaignPath(written), at: { file, pointer: at(kind) } });
  }
  const window = asRecord(conditions['scene_count']);
  const bound = (key: string): { [key: string]: number } => (typeof window?.[key] === 'number' ? { [key]: window[key] as number } : {});
  const priority = asString(beat['priority']);
  return {
    index,
    id: asString(beat['id']),
    title: asString(beat['title']),
    description: asString(beat['description']),
    priority: priority !== undefined && PRIORITIES.has(priority) ? (priority as BeatPriority) : 'medium',
    sceneWindow: window ? { ...bound('min'), ...bound('max') } : undefined,
    conditionKinds: Object.keys(conditions),
    links,
    npcMentions,
    paths,
    at: { file, pointer: at() },
    idAt: { file, pointer: at('id') },
  };
}

/** An NPC from its profile (possibly missing or unparseable) and the other files of its folder. */
export function readNpc(key: string, folder: string, profile: CampaignFile | undefined, value: unknown, files: readonly CampaignFile[]): CampaignNpc {
  const data = asRecord(value);
  const paths: PathLink[] = [];
  if (profile && data) {
    const file = profile.path;
    for (const kind of ['portrait', 'voice'] as const) {
      const written = asString(data[kind]);
      if (written) paths.push({ kind, written, target: campaignPath(written), at: { file, pointer: `/${kind}` } });
    }
    const secrets = asString(data['secrets']);
    if (secrets !== undefined && SECRETS_PATH.test(secrets.trim())) {
      const written = secrets.trim();
      paths.push({ kind: 'secrets', written, target: campaignPath(written, path.posix.dirname(file)), at: { file, pointer: '/secrets' } });
    }
  }
  return { key, folder, profile, data, name: asString(data?.['name']), role: asString(data?.['role']), files, paths };
}

/** The keywords of a FILE.keywords.txt: one per line; blank lines and lines starting with # are left out (FR-039b). */
export function readKeywords(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** What a parsed FILE.meta.json says about generation. */
export function readSidecarMeta(value: unknown): SidecarMeta | undefined {
  const data = asRecord(value);
  if (!data) return undefined;
  return { generated: typeof data['generated'] === 'boolean' ? data['generated'] : undefined, provenance: asRecord(data['provenance']) };
}
