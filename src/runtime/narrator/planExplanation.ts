// Why a plan's tools were chosen and why skills that matched some words stayed out, read back for `play --explain` and the play panel.
import type { Plan } from '../contractTypes/plan.js';
import type { MissReason } from './selection/selectionTypes.js';
import type { Field } from './selection/selectionTuning.js';

/** Where in a manifest a word matched (skill selection's fields). */
export type EvidenceField = Field;

/** One of the player's words (or a cue's) that matched a skill, where, and through which related word of the manifest. */
export interface EvidenceExplanation {
  readonly word: string;
  /** The manifest's word it matched through relatedness ("distances" for "far"); absent for the same word. */
  readonly related?: string;
  readonly fields: readonly EvidenceField[];
  readonly contribution: number;
}

/** Why a tool is in the plan: written to `metadata.selection` by the pattern narrator. */
export interface SelectionExplanation {
  readonly toolId: string;
  readonly skill: string;
  readonly script: string;
  /** The skill's BM25F score against the words (the narrator has none: it is always called). */
  readonly score?: number;
  /** The words that matched, best first. */
  readonly terms?: readonly string[];
  /** The phrase cues that asked for this kind of skill (chance, past, opinion…). */
  readonly cues?: readonly string[];
  /** Each matched word and where it matched. */
  readonly evidence?: readonly EvidenceExplanation[];
  /** "meaning": no skill's words matched, and this skill's manifest was the closest in meaning (the word vectors). */
  readonly by?: 'meaning';
  readonly reason: string;
  /** Why this script beat the skill's other scripts. */
  readonly scriptReason?: string;
  /** Each input field the words filled, and the words it came from ("offer": "down to 20"). */
  readonly inputs?: Readonly<Record<string, string>>;
}

/** Why a skill that matched some of the words stayed out of the plan: written to `metadata.nearMisses`. */
export interface NearMissExplanation {
  readonly skill: string;
  readonly score: number;
  /** The score it needed (the threshold, or the share of the best skill's score). */
  readonly threshold: number;
  /** One of skill selection's reasons (the list lives with the selection that writes it). */
  readonly reason: MissReason;
  readonly evidence: readonly EvidenceExplanation[];
  /** For `input-not-filled`: the required fields the words did not give. */
  readonly fields?: readonly string[];
  /** For `act-not-asked`: why. */
  readonly detail?: string;
}

/** The plan's explanation, when its narrator wrote one (the pattern narrator's scores, or the LLM narrator's "chosen by the model"). */
export function selectionOf(plan: Plan): readonly SelectionExplanation[] | undefined {
  const selection = plan.metadata?.['selection'];
  if (!Array.isArray(selection)) return undefined;
  return selection.filter(
    (entry): entry is SelectionExplanation =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as SelectionExplanation).toolId === 'string' &&
      typeof (entry as SelectionExplanation).reason === 'string',
  );
}

/** The skills that scored but stayed out, best first (empty when the narrator wrote none). */
export function nearMissesOf(plan: Plan): readonly NearMissExplanation[] {
  const misses = plan.metadata?.['nearMisses'];
  if (!Array.isArray(misses)) return [];
  return misses.filter(
    (entry): entry is NearMissExplanation =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as NearMissExplanation).skill === 'string' &&
      typeof (entry as NearMissExplanation).score === 'number' &&
      Array.isArray((entry as NearMissExplanation).evidence),
  );
}

/**
 * One line per tool, then one per near miss:
 * `roll ← dice-roller/roll: matched "pick", "lock", "chance" (score 4.2; cues: chance)` and
 * `weather stayed out: 0.84 < 1 (matched "rain" in the description only)`.
 */
export function explanationLines(plan: Plan): string[] {
  return [...selectionLines(plan), ...nearMissesOf(plan).map(nearMissLine)];
}

/** Why each tool was chosen, one line per tool. */
export function selectionLines(plan: Plan): string[] {
  const selection = selectionOf(plan);
  if (!selection)
    return [plan.tools.length > 0 ? 'no explanation: this plan was not written by the pattern narrator' : 'a narrative-only plan: no skill matched'];
  if (selection.length === 0) return ['a narrative-only plan: no skill matched and no storyteller is available'];
  return selection.map((entry) => {
    // By meaning, the reason says it all: which of the player's words came close to which of the manifest's.
    if (entry.by === 'meaning') return `${entry.toolId} ← ${entry.skill}/${entry.script}: ${entry.reason}${afterwards(entry)}`;
    const words =
      entry.evidence && entry.evidence.length > 0
        ? `matched ${entry.evidence.map(evidenceWords).join(', ')}`
        : entry.terms && entry.terms.length > 0
          ? `matched ${entry.terms.map((term) => `"${term}"`).join(', ')}`
          : entry.reason;
    const details = [
      entry.score !== undefined ? `score ${entry.score}` : undefined,
      entry.cues && entry.cues.length > 0 ? `cues: ${entry.cues.join(', ')}` : undefined,
    ]
      .filter(Boolean)
      .join('; ');
    return `${entry.toolId} ← ${entry.skill}/${entry.script}: ${words}${details ? ` (${details})` : ''}${afterwards(entry)}`;
  });
}

/** The script's reason and the input's words, after the skill's: `; script: "haggle" …; input: item ← "the silver compass"`. */
function afterwards(entry: SelectionExplanation): string {
  const inputs = Object.entries(entry.inputs ?? {});
  return [
    entry.scriptReason ? `; script: ${entry.scriptReason}` : '',
    inputs.length > 0 ? `; input: ${inputs.map(([field, words]) => `${field} ← "${words}"`).join(', ')}` : '',
  ].join('');
}

const FIELD_NAMES: Readonly<Record<EvidenceField, string>> = {
  identity: 'name, capabilities or keywords',
  examples: 'examples',
  scriptNames: 'script names',
  description: 'description',
  scriptDescriptions: 'script descriptions',
  prompt: 'prompt.md',
};

/** `weather stayed out: 0.84 < 1 (matched "rain" in the description only)`. */
export function nearMissLine(miss: NearMissExplanation): string {
  const comparison = `${miss.score} < ${miss.threshold}`;
  const why: Record<NearMissExplanation['reason'], string> = {
    'below-threshold': comparison,
    'far-behind-best': `${comparison}, far behind the best match`,
    'related-words-only': `${miss.score}, found only through related words, and another skill matched better`,
    'no-likeness-asked': `${miss.score}, but a picture needs words about a likeness ("what does … look like", "portrait")`,
    'one-per-role': `${miss.score}, but one skill of its kind per plan, and another of higher priority was chosen`,
    'too-many-skills': `${miss.score}, but the plan already has three skills`,
    'input-not-filled': `${miss.score}, but ${missingFieldsText(miss.fields)}`,
    'act-not-asked': `${miss.score}, but ${miss.detail ?? 'a question or a look never runs a script that acts'}`,
  };
  const matched =
    miss.evidence.length === 0
      ? 'no words matched'
      : `matched ${miss.evidence
          .slice(0, 4)
          .map((each) => `${evidenceWords(each)} in the ${placesOf(each.fields)}`)
          .join('; ')}`;
  return `${miss.skill} stayed out: ${why[miss.reason]} (${matched})`;
}

function evidenceWords(evidence: EvidenceExplanation): string {
  return evidence.related ? `"${evidence.word}" (as "${evidence.related}")` : `"${evidence.word}"`;
}

function placesOf(fields: readonly EvidenceField[]): string {
  const names = fields.map((field) => FIELD_NAMES[field]);
  if (names.length === 0) return 'manifest';
  if (names.length === 1) return `${names[0]} only`;
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** What the words did not give a skill's required input: its fields named, or the input as a whole. */
function missingFieldsText(fields: readonly string[] | undefined): string {
  if (!fields || fields.length === 0) return 'its input could not be filled from the words';
  return `the words give no ${fields.map((field) => `"${field}"`).join(', ')} (required)`;
}
