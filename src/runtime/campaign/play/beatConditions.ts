// Checks one beat's conditions against the session (docs/campaigns.md#state-keys): each kind read from its state keys, free text judged by meaning, and whether a condition can no longer hold. Pure.
import { evaluateCondition, parseCondition, pathsRead } from '../../state/conditionExpression.js';
import { judgeByMeaning, type Evidence, type Judgement } from './meaningJudge.js';
import { npcNamed, type StoryBeat, type StoryNpc } from './storyCampaign.js';
import { npcEntryOf, sameValue, valueAt, wordsOfValue } from './storyState.js';
import { mentions } from './storyText.js';

/** What a beat's conditions are checked against. */
export interface StoryView {
  /** The scene being played (1 for the first turn after the opening). */
  readonly scene: number;
  readonly done: ReadonlySet<string>;
  readonly skipped: ReadonlySet<string>;
  /** Beats an outcome of a done beat enabled: their own beat requirements count as met. */
  readonly enabled: ReadonlySet<string>;
  /** The `player_choice` ids taken. */
  readonly choices: ReadonlySet<string>;
  readonly state: Readonly<Record<string, unknown>>;
  /** The session's memories and scene summaries, newest first. */
  readonly memories: readonly Evidence[];
  readonly npcs: readonly StoryNpc[];
}

/** One condition's verdict. */
export interface ConditionCheck {
  /** The condition's kind (scene_count, requires_beat, player_state...), with the key for npc_state and world_state (`npc_state.tamsin`). */
  readonly kind: string;
  readonly holds: boolean;
  readonly reason: string;
  /** Set when it was judged by meaning. */
  readonly judgement?: Judgement;
  /** Set when it can never hold again (the beat is then skipped with this reason). */
  readonly impossible?: string;
}

/** npc-perception's attitude names: an npc_state value among them is compared with the NPC's `attitude`. */
const ATTITUDES = new Set(['hostile', 'unfriendly', 'wary', 'neutral', 'cordial', 'friendly', 'trusting', 'devoted']);

function list(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

const parsedExpressions = new Map<string, ReturnType<typeof parseCondition>>();

function parsed(expression: string): ReturnType<typeof parseCondition> {
  let result = parsedExpressions.get(expression);
  if (!result) {
    result = parseCondition(expression, { bareNamesInState: true });
    if (parsedExpressions.size < 1000) parsedExpressions.set(expression, result);
  }
  return result;
}

/** Whether a beat's beat requirements (requires_beat, requires_any_beat) are met: then it is possible. */
export function beatRequirementsMet(beat: StoryBeat, done: ReadonlySet<string>, enabled: ReadonlySet<string>): boolean {
  if (enabled.has(beat.id)) return true;
  const met = (id: string) => done.has(id);
  const all = list(beat.conditions['requires_beat']);
  const any = list(beat.conditions['requires_any_beat']);
  return all.every(met) && (any.length === 0 || any.some(met));
}

/** Conditions judged by meaning: read only once the beat's other conditions hold (judging costs, and says nothing before). */
const JUDGED_KINDS = new Set(['player_state', 'npc_state']);

/**
 * Every condition of the beat, in file order. A beat without conditions holds at once. Free-text conditions are judged
 * only when the others hold; until then they are reported as not judged.
 */
export function checkBeat(beat: StoryBeat, view: StoryView): ConditionCheck[] {
  const entries = Object.entries(beat.conditions);
  const checks = new Map<string, ConditionCheck[]>();
  for (const [kind, value] of entries) {
    if (JUDGED_KINDS.has(kind)) continue;
    // An outcome of a done beat enabled this one: its beat requirements count as met.
    if (view.enabled.has(beat.id) && (kind === 'requires_beat' || kind === 'requires_any_beat'))
      checks.set(kind, [{ kind, holds: true, reason: 'enabled by an outcome of a done beat' }]);
    else checks.set(kind, checkCondition(kind, value, view));
  }
  const others = [...checks.values()].flat();
  const waiting = others.filter((check) => !check.holds);
  for (const [kind, value] of entries) {
    if (!JUDGED_KINDS.has(kind)) continue;
    checks.set(
      kind,
      waiting.length === 0
        ? checkCondition(kind, value, view)
        : [{ kind, holds: false, reason: `not judged yet (${waiting[0]!.kind}: ${waiting[0]!.reason})` }],
    );
  }
  return entries.flatMap(([kind]) => checks.get(kind) ?? []);
}

function checkCondition(kind: string, value: unknown, view: StoryView): ConditionCheck[] {
  switch (kind) {
    case 'scene_count': {
      const window = (value ?? {}) as { min?: unknown; max?: unknown };
      const min = typeof window.min === 'number' ? window.min : undefined;
      const max = typeof window.max === 'number' ? window.max : undefined;
      const span = `scenes ${min ?? 0}-${max ?? 'on'}`;
      const holds = (min === undefined || view.scene >= min) && (max === undefined || view.scene <= max);
      const passed = max !== undefined && view.scene > max;
      return [
        {
          kind,
          holds,
          reason: `scene ${view.scene}, ${span}`,
          ...(passed ? { impossible: `its scenes (${min ?? 0}-${max}) passed without its other conditions holding` } : {}),
        },
      ];
    }
    case 'requires_beat': {
      const ids = list(value);
      const missing = ids.filter((id) => !view.done.has(id));
      const skipped = ids.filter((id) => view.skipped.has(id));
      return [
        {
          kind,
          holds: missing.length === 0,
          reason: missing.length === 0 ? `${ids.join(', ')} done` : `waits for ${missing.join(', ')}`,
          ...(skipped.length > 0 ? { impossible: `it requires ${skipped.join(', ')}, which was skipped` } : {}),
        },
      ];
    }
    case 'requires_any_beat': {
      const ids = list(value);
      const met = ids.filter((id) => view.done.has(id));
      const allSkipped = ids.length > 0 && ids.every((id) => view.skipped.has(id));
      return [
        {
          kind,
          holds: met.length > 0 || ids.length === 0,
          reason: met.length > 0 ? `${met[0]} done` : `waits for one of ${ids.join(', ')}`,
          ...(allSkipped ? { impossible: `it requires one of ${ids.join(', ')}, and all were skipped` } : {}),
        },
      ];
    }
    case 'player_choice':
    case 'player_choices': {
      const ids = list(value);
      const missing = ids.filter((id) => !view.choices.has(id));
      return [
        { kind, holds: missing.length === 0, reason: missing.length === 0 ? `chose ${ids.join(', ')}` : `the player has not chosen ${missing.join(', ')}` },
      ];
    }
    case 'player_state':
      return [playerState(value, view)];
    case 'npc_state':
      return Object.entries((value ?? {}) as Record<string, unknown>).map(([name, wanted]) => npcState(name, wanted, view));
    case 'world_state':
      return Object.entries((value ?? {}) as Record<string, unknown>).map(([key, wanted]) => worldState(key, wanted, view));
    case 'custom':
      return [custom(value, view)];
    default:
      return [{ kind, holds: true, reason: `"${kind}" is not a condition Narratoria knows; ignored` }];
  }
}

function judged(kind: string, claim: string, evidence: readonly Evidence[]): ConditionCheck {
  const judgement = judgeByMeaning(claim, evidence);
  return { kind, holds: judgement.holds, reason: judgement.reason, judgement };
}

function playerState(value: unknown, view: StoryView): ConditionCheck {
  const player = view.state['player'];
  const own: Evidence[] = player === undefined ? [] : [{ source: 'state player', text: wordsOfValue(player).join('; ') }];
  if (typeof value === 'string') return judged('player_state', value, [...own, ...view.memories]);
  const wanted = (value ?? {}) as Record<string, unknown>;
  const unmet = Object.entries(wanted).filter(([key, expected]) => !sameValue(valueAt(view.state, `player.${key}`), expected));
  return {
    kind: 'player_state',
    holds: unmet.length === 0,
    reason: unmet.length === 0 ? 'player state as required' : unmet.map(([key, expected]) => `player.${key} is not ${JSON.stringify(expected)}`).join('; '),
  };
}

/** What tells of an NPC: its entry under `npcs`, the memories naming it, and its profile (what the campaign says of it). */
function npcEvidence(npc: StoryNpc | undefined, name: string, view: StoryView): Evidence[] {
  const aliases = npc?.aliases ?? [name.toLowerCase()];
  const entry = npcEntryOf(view.state, aliases);
  const evidence: Evidence[] = entry ? [{ source: `state npcs.${entry.key}`, text: wordsOfValue(entry.value).join('; ') }] : [];
  evidence.push(...view.memories.filter((memory) => aliases.some((alias) => mentions(memory.text, alias))));
  // The profile is one piece of evidence: what the campaign says of the NPC, read together (a "wary" trait and a
  // motivation naming Odile say "worried about Odile").
  if (npc) {
    const relationships = Object.entries(npc.relationships).map(([other, how]) => `${other}: ${how}`);
    const text = [npc.role, npc.traits.join(', '), npc.firstAppearance ?? '', ...npc.motivations, ...relationships].filter(Boolean).join('. ');
    evidence.push({ source: `the profile of ${npc.name}`, text });
  }
  return evidence;
}

function npcState(name: string, wanted: unknown, view: StoryView): ConditionCheck {
  const kind = `npc_state.${name}`;
  const npc = npcNamed({ npcs: view.npcs }, name);
  if (typeof wanted !== 'string') return { kind, holds: false, reason: `${name}: only text states are read` };
  if (ATTITUDES.has(wanted.toLowerCase())) {
    const entry = npcEntryOf(view.state, npc?.aliases ?? [name.toLowerCase()]);
    const attitude = valueAt({ npc: entry?.value ?? {} }, 'npc.attitude');
    return {
      kind,
      holds: sameValue(attitude, wanted),
      reason: entry ? `npcs.${entry.key}.attitude is ${String(attitude ?? 'unset')}` : `${npc?.name ?? name} has no entry under npcs`,
    };
  }
  return judged(kind, wanted, npcEvidence(npc, name, view));
}

function worldState(key: string, wanted: unknown, view: StoryView): ConditionCheck {
  const kind = `world_state.${key}`;
  const actual = valueAt(view.state, `world.${key}`);
  if (sameValue(actual, wanted)) return { kind, holds: true, reason: `world.${key} is ${JSON.stringify(actual)}` };
  if (typeof wanted === 'string' && /\s/.test(wanted.trim()) && actual !== undefined)
    return judged(kind, wanted, [{ source: `state world.${key}`, text: wordsOfValue(actual).join('; ') }]);
  return {
    kind,
    holds: false,
    reason: actual === undefined ? `world.${key} is not set` : `world.${key} is ${JSON.stringify(actual)}, not ${JSON.stringify(wanted)}`,
  };
}

function custom(value: unknown, view: StoryView): ConditionCheck {
  const expression = (value as { expression?: unknown } | undefined)?.expression;
  if (typeof expression !== 'string') return { kind: 'custom', holds: false, reason: 'custom needs an "expression"' };
  const result = parsed(expression);
  if (!result.ok) return { kind: 'custom', holds: false, reason: `"${expression}" does not parse: ${result.message}` };
  const holds = evaluateCondition(result.expression, { state: view.state as Record<string, unknown>, dependencies: {} });
  const read = [...new Set(pathsRead(result.expression))].map((path) => `${path} = ${JSON.stringify(valueAt(view.state, path) ?? null)}`);
  return { kind: 'custom', holds, reason: `${expression} is ${holds}${read.length > 0 ? ` (${read.join(', ')})` : ''}` };
}
