// Hover in campaign files: a beat id shows the beat (title, priority, scene window, conditions, outcomes); an NPC name shows the character (role, personality). Pure.
import type { TextSpan } from '../../authoring/textSpan.js';
import { code } from '../../authoring/scriptSummary.js';
import type { Campaign, CampaignBeat, CampaignNpc } from '../campaignModel.js';
import { asRecord } from '../modelReading.js';
import { campaignSymbols, firstBeatOf, npcOf, occurrenceAt, type CampaignSymbols } from './campaignSymbols.js';

/** A hover: Markdown and the literal it is about. */
export interface CampaignHover {
  readonly markdown: string;
  readonly span: TextSpan;
}

/** The hover at `offset` of `file`: the beat a beat id names, the NPC a name names. */
export function hoverCampaign(campaign: Campaign, file: string, offset: number): CampaignHover | undefined {
  const symbols = campaignSymbols(campaign);
  const occurrence = occurrenceAt(symbols, file, offset);
  if (!occurrence) return undefined;
  const span = occurrence.literal;
  if (occurrence.kind === 'beat') {
    const beat = firstBeatOf(symbols, occurrence.written);
    if (beat) return { markdown: beatMarkdown(symbols, beat), span };
    return { markdown: `${code(occurrence.written)} is no beat of ${code(symbols.campaign.beats?.file.path ?? 'plot/beats.json')}.`, span };
  }
  const npc = occurrence.key === undefined ? undefined : npcOf(symbols, occurrence.key);
  if (npc) return { markdown: npcMarkdown(npc), span };
  const known = symbols.npcs.filter((candidate) => candidate.profile).map((candidate) => code(candidate.key));
  const list = known.length > 0 ? ` The NPCs are ${known.join(', ')}.` : '';
  return { markdown: `${code(occurrence.written)} names no NPC with a profile in ${code('characters/npcs/')}.${list}`, span };
}

/** A beat in Markdown: id and title, priority and scene window, description, conditions, outcomes, timeout and the beats that require it. */
export function beatMarkdown(symbols: CampaignSymbols, beat: CampaignBeat): string {
  const record = asRecord(asArray(asRecord(symbols.json(beat.at.file)?.value)?.['beats'])[beat.index]) ?? {};
  const conditions = asRecord(record['conditions']) ?? {};
  const named = (id: unknown): string => {
    if (typeof id !== 'string') return '';
    const target = firstBeatOf(symbols, id);
    return target ? `${code(id)} (${escape(target.title ?? '')})` : `${code(id)} (no such beat)`;
  };
  const lines = [`**${escape(beat.id ?? 'beat')}**${beat.title ? `: ${escape(beat.title)}` : ''}`, ''];
  const facts = [`Priority: **${beat.priority}**`, sceneWords(beat.sceneWindow)];
  if (record['skippable'] === true) facts.push('skippable');
  lines.push(facts.join(' | '), '');
  if (beat.description) lines.push(escape(beat.description), '');

  const requirements: string[] = [];
  const requires = conditions['requires_beat'];
  for (const id of Array.isArray(requires) ? requires : requires === undefined ? [] : [requires]) requirements.push(`after ${named(id)}`);
  const any = conditions['requires_any_beat'];
  if (Array.isArray(any) && any.length > 0) requirements.push(`after one of ${any.map(named).join(', ')}`);
  if (typeof conditions['player_choice'] === 'string') requirements.push(`the player chose ${code(conditions['player_choice'])}`);
  const choices = conditions['player_choices'];
  if (Array.isArray(choices) && choices.length > 0) requirements.push(`the player chose ${choices.map((choice) => code(String(choice))).join(' and ')}`);
  if (typeof conditions['player_state'] === 'string') requirements.push(`the player ${escape(conditions['player_state'])}`);
  for (const [name, state] of Object.entries(asRecord(conditions['npc_state']) ?? {})) requirements.push(`${code(name)}: ${escape(String(state))}`);
  const world = Object.entries(asRecord(conditions['world_state']) ?? {});
  if (world.length > 0) requirements.push(`the world has ${world.map(([name, value]) => `${code(name)} = ${code(JSON.stringify(value))}`).join(', ')}`);
  if (conditions['custom'] !== undefined) requirements.push(`custom: ${code(JSON.stringify(conditions['custom']))}`);
  if (requirements.length > 0) lines.push('**Conditions**', '', ...requirements.map((requirement) => `- ${requirement}`), '');

  const outcomes = asArray(record['outcomes']).map(asRecord);
  if (outcomes.length > 0) {
    lines.push('**Outcomes**', '');
    for (const outcome of outcomes) {
      const leads = outcome?.['triggers_beat'] === undefined ? '' : `, leads to ${named(outcome['triggers_beat'])}`;
      const chance = typeof outcome?.['probability'] === 'number' ? ` (${Math.round(outcome['probability'] * 100)}%)` : '';
      lines.push(`- ${escape(String(outcome?.['description'] ?? ''))}${leads}${chance}`);
    }
    lines.push('');
  }
  const timeout = asRecord(record['timeout']);
  if (timeout) {
    const after =
      typeof timeout['scene_count'] === 'number' ? `after ${timeout['scene_count']} scene${timeout['scene_count'] === 1 ? '' : 's'}` : 'when it times out';
    const fallback = timeout['fallback_beat'] === undefined ? '' : `, the story aims for ${named(timeout['fallback_beat'])} instead`;
    lines.push(`Timeout: ${after}${fallback}`, '');
  }
  const requiredBy = symbols.beats.filter((other) =>
    other.links.some((link) => (link.kind === 'requires' || link.kind === 'requiresAny') && link.target === beat.id),
  );
  if (requiredBy.length > 0) lines.push(`Required by ${requiredBy.map((other) => code(other.id ?? `beat ${other.index + 1}`)).join(', ')}`, '');
  return lines.join('\n').trimEnd();
}

/** An NPC in Markdown: name and key, role, traits, flaws and virtues, and its profile's path. */
export function npcMarkdown(npc: CampaignNpc): string {
  const personality = asRecord(npc.data?.['personality']);
  const list = (key: string): string | undefined => {
    const words = asArray(personality?.[key]).filter((word): word is string => typeof word === 'string');
    return words.length > 0 ? words.map(escape).join(', ') : undefined;
  };
  const lines = [`**${escape(npc.name ?? npc.key)}** (${code(npc.key)})`, ''];
  if (npc.role) lines.push(`*${escape(npc.role)}*`, '');
  for (const [key, label] of [
    ['traits', 'Traits'],
    ['flaws', 'Flaws'],
    ['virtues', 'Virtues'],
  ] as const) {
    const words = list(key);
    if (words) lines.push(`${label}: ${words}  `);
  }
  if (npc.profile) lines.push('', code(npc.profile.path));
  return lines.join('\n').trimEnd();
}

/** The scene window in words. */
function sceneWords(window: CampaignBeat['sceneWindow']): string {
  if (window?.min !== undefined && window.max !== undefined) return `Scenes ${window.min} to ${window.max}`;
  if (window?.min !== undefined) return `From scene ${window.min}`;
  if (window?.max !== undefined) return `By scene ${window.max}`;
  return 'Any scene';
}

function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Text shown as it is in Markdown (its punctuation escaped). */
export function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-!~<>|]/g, '\\$&').replace(/\r?\n/g, ' ');
}
