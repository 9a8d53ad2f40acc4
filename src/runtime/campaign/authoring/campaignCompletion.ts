// Completion in campaign files: beat ids where beats.json links beats, NPC names where a file names a character, and the next free id of a new beat. Pure.
import { findNodeAtLocation, type JSONPath, type Node } from 'jsonc-parser';
import {
  completionCursor,
  completionItem,
  isInComment,
  keyHasColon,
  leadingComma,
  sortKey,
  trailingComma,
  type CompletionCursor,
  type PlanCompletionItem,
} from '../../authoring/completionSupport.js';
import { escapeSnippet } from '../../authoring/completionSnippets.js';
import type { Campaign, CampaignBeat } from '../campaignModel.js';
import { npcKeyOf, roleOf } from '../folderLayout.js';
import { readBeats } from '../modelReading.js';
import { campaignJson } from './campaignJson.js';
import { beatMarkdown, npcMarkdown } from './campaignHover.js';
import { campaignSymbols, PLAYER_OPTION_LISTS, type CampaignSymbols } from './campaignSymbols.js';

/** A completion proposal; the VS Code adapter maps it 1:1 to a CompletionItem. */
export interface CampaignCompletionItem extends Omit<PlanCompletionItem, 'kind'> {
  readonly kind: 'beat' | 'npc';
}

/** What the cursor's place expects. */
type Expected =
  | { readonly kind: 'beat'; readonly beatIndex: number; readonly array: JSONPath | undefined; readonly asArray: boolean }
  | { readonly kind: 'newBeatId'; readonly beatIndex: number }
  | { readonly kind: 'npcKey'; readonly object: JSONPath; readonly self: string | undefined }
  | { readonly kind: 'npcValue' };

/**
 * Proposals at `offset` of `file` (campaign-relative), whose current text is `text`: the campaign gives the beats and NPCs;
 * the beats of plot/beats.json are read from `text` itself, so a file being written still lists them.
 */
export function completeCampaign(campaign: Campaign, file: string, text: string, offset: number): CampaignCompletionItem[] {
  if (isInComment(text, offset)) return [];
  const cursor = completionCursor(text, offset);
  const expected = expectedAt(file, cursor);
  if (!expected) return [];
  const symbols = campaignSymbols(campaign);
  const current = campaignJson(file, text);
  const root = current.json.root;
  const beats =
    roleOf(file) === 'beats' ? readBeats({ path: file, size: text.length, role: 'beats', generatedName: false }, current.value).beats : symbols.beats;
  switch (expected.kind) {
    case 'beat': {
      const taken = expected.array && root ? valuesOf(root, expected.array, cursor.token?.span.offset) : [];
      return beatItems(symbols, beats, cursor, expected, taken);
    }
    case 'newBeatId':
      return newIdItem(beats, cursor, expected.beatIndex);
    case 'npcKey':
      return npcItems(symbols, cursor, { self: expected.self, taken: root ? keysOf(root, expected.object, cursor.token?.span.offset) : [] });
    case 'npcValue':
      return npcItems(symbols, cursor, { self: undefined, taken: [] });
  }
}

/** Where beat ids and NPC names go, by the file's role and the JSON path of the cursor. */
function expectedAt(file: string, cursor: CompletionCursor): Expected | undefined {
  const path = cursor.path;
  const role = roleOf(file);
  if (role === 'beats' && path[0] === 'beats' && typeof path[1] === 'number') {
    const beatIndex = path[1];
    const rest = path.slice(2);
    if (cursor.atKey) return rest[0] === 'conditions' && rest[1] === 'npc_state' && rest.length === 3 ? npcKey(path.slice(0, -1), undefined) : undefined;
    if (rest.length === 1 && rest[0] === 'id') return { kind: 'newBeatId', beatIndex };
    if (rest[0] === 'conditions' && (rest[1] === 'requires_beat' || rest[1] === 'requires_any_beat')) {
      if (rest.length === 3 && typeof rest[2] === 'number') return { kind: 'beat', beatIndex, array: path.slice(0, -1), asArray: false };
      if (rest.length === 2) return { kind: 'beat', beatIndex, array: undefined, asArray: rest[1] === 'requires_any_beat' };
    }
    if (rest.length === 3 && rest[0] === 'outcomes' && typeof rest[1] === 'number' && rest[2] === 'triggers_beat')
      return { kind: 'beat', beatIndex, array: undefined, asArray: false };
    if (rest.length === 2 && rest[0] === 'timeout' && rest[1] === 'fallback_beat') return { kind: 'beat', beatIndex, array: undefined, asArray: false };
    if (rest.length === 3 && rest[0] === 'dialogue' && typeof rest[1] === 'number' && rest[2] === 'speaker') return { kind: 'npcValue' };
    return undefined;
  }
  if (!cursor.atKey) return undefined;
  if (role === 'npcProfile' && path.length === 2 && path[0] === 'relationships') return npcKey(path.slice(0, -1), npcKeyOf(file));
  if (role === 'playerTemplate' && path.length === 4 && (PLAYER_OPTION_LISTS as readonly unknown[]).includes(path[0]) && path[2] === 'starting_relationships') {
    return npcKey(path.slice(0, -1), undefined);
  }
  return undefined;
}

function npcKey(object: JSONPath, self: string | undefined): Expected {
  return { kind: 'npcKey', object, self };
}

function beatItems(
  symbols: CampaignSymbols,
  beats: readonly CampaignBeat[],
  cursor: CompletionCursor,
  expected: Extract<Expected, { kind: 'beat' }>,
  listed: readonly string[],
): CampaignCompletionItem[] {
  const taken = new Set(listed);
  const seen = new Set<string>();
  const items: CampaignCompletionItem[] = [];
  for (const beat of beats) {
    // A beat never links to itself; an id listed already (or twice in the file) is offered once.
    if (beat.id === undefined || beat.index === expected.beatIndex || taken.has(beat.id) || seen.has(beat.id)) continue;
    seen.add(beat.id);
    const literal = JSON.stringify(beat.id);
    const insertText = expected.asArray ? `[${literal}]` : `${inArray(cursor, expected)}${literal}`;
    items.push({
      ...completionItem(cursor, {
        label: beat.id,
        kind: 'value',
        insertText: `${insertText}${cursor.token ? '' : trailingComma(cursor)}`,
        detail: beat.title ?? '',
        documentation: beatMarkdown(symbols, beat),
        sortText: sortKey(0, beat.index),
      }),
      kind: 'beat',
    });
  }
  return items;
}

function inArray(cursor: CompletionCursor, expected: Extract<Expected, { kind: 'beat' }>): string {
  return expected.array && !cursor.token ? leadingComma(cursor) : '';
}

/** The next free id after the file's highest (beat_007 after beat_006), with as many digits. */
function newIdItem(beats: readonly CampaignBeat[], cursor: CompletionCursor, beatIndex: number): CampaignCompletionItem[] {
  let highest = 0;
  let digits = 3;
  for (const beat of beats) {
    const match = beat.index === beatIndex ? null : /^beat_([0-9]{3,})$/.exec(beat.id ?? '');
    if (!match) continue;
    highest = Math.max(highest, Number(match[1]));
    digits = Math.max(digits, match[1]!.length);
  }
  const id = `beat_${String(highest + 1).padStart(digits, '0')}`;
  const item = completionItem(cursor, {
    label: id,
    kind: 'value',
    insertText: JSON.stringify(id),
    detail: 'the next free beat id',
    sortText: sortKey(0, 0),
    preselect: true,
  });
  return [{ ...item, kind: 'beat' }];
}

function npcItems(
  symbols: CampaignSymbols,
  cursor: CompletionCursor,
  options: { readonly self: string | undefined; readonly taken: readonly string[] },
): CampaignCompletionItem[] {
  const taken = new Set(options.taken);
  const items: CampaignCompletionItem[] = [];
  symbols.npcs.forEach((npc, position) => {
    if (!npc.profile || npc.key === options.self || taken.has(npc.key)) return;
    const literal = JSON.stringify(npc.key);
    let insertText = literal;
    let isSnippet = false;
    if (cursor.atKey && !keyHasColon(cursor)) {
      // A new property: the key, a colon and a place for the value.
      insertText = `${cursor.token ? '' : leadingComma(cursor)}${escapeSnippet(literal)}: "$1"${trailingComma(cursor)}`;
      isSnippet = true;
    } else if (!cursor.token) {
      insertText = `${literal}${trailingComma(cursor)}`;
    }
    items.push({
      ...completionItem(cursor, {
        label: npc.key,
        kind: 'value',
        insertText,
        isSnippet,
        detail: [npc.name, npc.role].filter((part) => part !== undefined).join(' - '),
        documentation: npcMarkdown(npc),
        sortText: sortKey(0, position),
        filterWord: npc.name ? `${npc.key} ${npc.name}` : npc.key,
      }),
      kind: 'npc',
    });
  });
  return items;
}

/** The keys of the object at `path`, leaving out the key being typed (at `except`). */
function keysOf(root: Node, path: JSONPath, except: number | undefined): string[] {
  const node = findNodeAtLocation(root, path);
  if (node?.type !== 'object') return [];
  return (node.children ?? []).flatMap((property) => {
    const key = property.children?.[0];
    return key && key.offset !== except && typeof key.value === 'string' ? [key.value] : [];
  });
}

/** The string items of the array at `path`, leaving out the one being typed (at `except`). */
function valuesOf(root: Node, path: JSONPath, except: number | undefined): string[] {
  const node = findNodeAtLocation(root, path);
  if (node?.type !== 'array') return [];
  return (node.children ?? []).flatMap((item) => (item.offset !== except && typeof item.value === 'string' ? [item.value] : []));
}
