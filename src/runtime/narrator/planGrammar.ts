// Builds the JSON schema that constrains the model's output (only existing scripts, bounded strings) and turns its output into a Plan. Pure: no I/O, no model.
import { randomUUID } from 'node:crypto';
import type { Plan, ToolInvocation } from '../model/plan.js';
import type { NarratorSkill, SkillHealth } from '../skills/skillTypes.js';

/** A JSON schema in the subset node-llama-cpp turns into a grammar (every listed property is required). */
export type GrammarSchema = Readonly<Record<string, unknown>>;

/** Limits of the generated plan; they keep the grammar small and greedy decoding short. */
export interface PlanGrammarLimits {
  readonly maxTools: number;
  readonly narrativeMaxLength: number;
  readonly inputStringMaxLength: number;
  readonly maxInputProperties: number;
}

/** Defaults of {@link PlanGrammarLimits}. */
export const DEFAULT_GRAMMAR_LIMITS: PlanGrammarLimits = { maxTools: 6, narrativeMaxLength: 300, inputStringMaxLength: 100, maxInputProperties: 8 };

/** Health states the planner may select (seed 000 §3: healthy normally, degraded with caution). */
const SELECTABLE_HEALTH: ReadonlySet<SkillHealth> = new Set<SkillHealth>(['healthy', 'degraded']);

/** A script the model may call. */
export interface GrammarScript {
  readonly skill: string;
  readonly script: string;
  readonly toolPath: string;
  readonly description: string | undefined;
  /** Input field names the grammar offers (a null value means "not given"). Undefined: free-form small object. */
  readonly inputFields: readonly string[] | undefined;
}

/** The grammar schema and what it allows. */
export interface PlanGrammar {
  readonly schema: GrammarSchema;
  readonly scripts: readonly GrammarScript[];
  /** The toolPath enum: every script of a selectable, not disabled skill. */
  readonly toolPaths: readonly string[];
  /** The toolIds by position: tool n is always `toolIds[n - 1]`. */
  readonly toolIds: readonly string[];
  readonly limits: PlanGrammarLimits;
}

/** The skills the model may choose from: selectable health and not disabled (FR-008). */
export function selectableSkills(skills: readonly NarratorSkill[], disabledSkills: readonly string[]): NarratorSkill[] {
  const disabled = new Set(disabledSkills);
  return skills.filter((skill) => !disabled.has(skill.name) && SELECTABLE_HEALTH.has(skill.health));
}

/**
 * Builds the grammar schema `{narrative, tools}`. `tools` is one of the fixed-length lists 0..maxTools, and
 * tool n is one variant per available script: `toolId` the constant "step<n>", `toolPath` that script (so the
 * model cannot name a script that does not exist), `input` from its input schema when simple, and
 * `dependencies` drawn from step1..step<n-1>. So toolIds are unique and every dependency names an earlier
 * tool: no unknown dependency, no self-dependency, no cycle (FR-009) can be generated.
 */
export function buildPlanGrammar(skills: readonly NarratorSkill[], disabledSkills: readonly string[], limits: PlanGrammarLimits = DEFAULT_GRAMMAR_LIMITS): PlanGrammar {
  const scripts: GrammarScript[] = [];
  const inputSchemas: GrammarSchema[] = [];
  const seenPaths = new Set<string>();
  for (const skill of selectableSkills(skills, disabledSkills)) {
    for (const script of skill.scripts) {
      if (seenPaths.has(script.toolPath)) continue;
      seenPaths.add(script.toolPath);
      const input = inputSchemaFor(script.inputSchema, limits);
      inputSchemas.push(input.schema);
      scripts.push({ skill: skill.name, script: script.name, toolPath: script.toolPath, description: script.description, inputFields: input.fields });
    }
  }
  const toolIds = Array.from({ length: limits.maxTools }, (_, index) => `step${index + 1}`);
  const emptyList = { type: 'array', items: { type: 'null' }, maxItems: 0 };
  const toolAt = (position: number): GrammarSchema => {
    const earlier = toolIds.slice(0, position);
    const dependencies = earlier.length === 0 ? emptyList : { type: 'array', items: { enum: earlier }, maxItems: earlier.length };
    const variants = scripts.map((script, index) => ({
      type: 'object',
      properties: {
        toolId: { const: toolIds[position] },
        toolPath: { const: script.toolPath },
        input: inputSchemas[index],
        dependencies,
        required: { type: 'boolean' },
        async: { type: 'boolean' },
      },
    }));
    return variants.length === 1 ? (variants[0] as GrammarSchema) : { oneOf: variants };
  };
  const lists: GrammarSchema[] = [emptyList];
  if (scripts.length > 0) {
    const positions = toolIds.map((_, position) => toolAt(position));
    for (let length = 1; length <= limits.maxTools; length++) lists.push({ type: 'array', prefixItems: positions.slice(0, length), minItems: length, maxItems: length });
  }
  const schema = {
    type: 'object',
    properties: {
      narrative: { type: 'string', maxLength: limits.narrativeMaxLength },
      tools: lists.length === 1 ? emptyList : { oneOf: lists },
    },
  };
  return { schema, scripts, toolPaths: scripts.map((script) => script.toolPath), toolIds, limits };
}

const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean']);

/** The grammar for a script's input: every simple property of its input schema, each nullable; else a small free object. */
function inputSchemaFor(inputSchema: Record<string, unknown> | undefined, limits: PlanGrammarLimits): { schema: GrammarSchema; fields: string[] | undefined } {
  const properties = inputSchema?.['type'] === 'object' ? asRecord(inputSchema['properties']) : undefined;
  if (!properties) {
    const value = { oneOf: [{ type: 'string', maxLength: limits.inputStringMaxLength }, { type: 'number' }, { type: 'boolean' }] };
    return { schema: { type: 'object', additionalProperties: value, maxProperties: Math.min(4, limits.maxInputProperties) }, fields: undefined };
  }
  const required = new Set(Array.isArray(inputSchema?.['required']) ? (inputSchema['required'] as unknown[]).filter((key) => typeof key === 'string') : []);
  const grammarProperties: Record<string, GrammarSchema> = {};
  for (const [name, value] of Object.entries(properties)) {
    if (Object.keys(grammarProperties).length >= limits.maxInputProperties) break;
    const property = asRecord(value);
    const alternatives = property ? propertyAlternatives(property, limits) : [];
    if (alternatives.length === 0) continue;
    if (!required.has(name)) alternatives.push({ type: 'null' });
    grammarProperties[name] = alternatives.length === 1 ? (alternatives[0] as GrammarSchema) : { oneOf: alternatives };
  }
  return { schema: { type: 'object', properties: grammarProperties }, fields: Object.keys(grammarProperties) };
}

function propertyAlternatives(property: Record<string, unknown>, limits: PlanGrammarLimits): GrammarSchema[] {
  const literal = (value: unknown): boolean => value === null || ['string', 'number', 'boolean'].includes(typeof value);
  if (Array.isArray(property['enum']) && property['enum'].every(literal)) return [{ enum: property['enum'] }];
  if ('const' in property && literal(property['const'])) return [{ const: property['const'] }];
  const declared = property['type'];
  const types = (Array.isArray(declared) ? declared : [declared]).filter((type): type is string => typeof type === 'string' && SCALAR_TYPES.has(type));
  return types.map((type) => {
    if (type !== 'string') return { type };
    const maxLength = Math.min(typeof property['maxLength'] === 'number' ? property['maxLength'] : limits.inputStringMaxLength, limits.inputStringMaxLength);
    const minLength = typeof property['minLength'] === 'number' && property['minLength'] <= maxLength ? property['minLength'] : 0;
    return minLength > 0 ? { type, minLength, maxLength } : { type, maxLength };
  });
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** What the plan needs besides the model's output. */
export interface PlanContext {
  readonly attempt: number;
  readonly parentPlanId: string | null;
  readonly disabledSkills: readonly string[];
}

/**
 * Turns the model's output (already parsed and checked against the grammar schema) into a Plan: drops null
 * input fields and repeated dependencies, fills requestId, disabledSkills and metadata (FR-010). The caller validates the result.
 */
export function planFromModelOutput(output: unknown, context: PlanContext): Plan {
  const record = asRecord(output) ?? {};
  const tools: ToolInvocation[] = (Array.isArray(record['tools']) ? record['tools'] : []).map((value: unknown) => {
    const tool = asRecord(value) ?? {};
    const input = Object.fromEntries(Object.entries(asRecord(tool['input']) ?? {}).filter(([, field]) => field !== null));
    const listed = Array.isArray(tool['dependencies']) ? tool['dependencies'].filter((id): id is string => typeof id === 'string') : [];
    const dependencies = [...new Set(listed)];
    return {
      toolId: String(tool['toolId'] ?? ''),
      toolPath: String(tool['toolPath'] ?? ''),
      input,
      dependencies,
      required: tool['required'] !== false,
      async: tool['async'] === true,
    };
  });
  const narrative = typeof record['narrative'] === 'string' ? record['narrative'].trim() : '';
  return {
    requestId: randomUUID(),
    ...(narrative !== '' ? { narrative } : {}),
    tools,
    parallel: tools.some((tool) => tool.async === true),
    disabledSkills: [...context.disabledSkills],
    metadata: { generationAttempt: context.attempt, parentPlanId: context.parentPlanId, narrator: 'llm', createdAt: new Date().toISOString() },
  };
}
