// Validates a Plan JSON text or value: syntax, schema, semantic checks and tool paths; returns sorted diagnostics.
import { contractSchemas, contractValidator } from '../contracts/schemas.js';
import type { Plan } from '../contractTypes/plan.js';
import type { SkillCatalog } from '../skills/skillCatalog.js';
import type { BrokenSkill } from '../skills/skillTypes.js';
import { checkConditions } from './conditionChecks.js';
import { checkCycles } from './cycleChecks.js';
import { comparePositions, DiagnosticCode, type Diagnostic, type DiagnosticDraft, type SourceRange } from './diagnostic.js';
import { parseJsonDocument, parsePointer, type JsonDocument } from './jsonLocator.js';
import { checkSubPlans, checkToolPaths, type ToolPathResolutions } from './pathChecks.js';
import { asRecord, checkDependencies, checkDisabledSkills, checkToolIds, viewTools, type ToolIdIndex, type ToolView } from './planChecks.js';
import { schemaProblems } from './schemaErrors.js';
import { readPlanTolerantly, tolerateSchemaErrors } from './tolerantPlanReading.js';
import { checkBrokenSkills, checkSkillCatalog } from './skillChecks.js';
import { rangeInStringLiteral } from './stringLiteralRange.js';
import type { ToolPathPolicy } from './toolPathPolicy.js';

/** Options of {@link validatePlanText} and {@link validatePlanValue}. */
export interface PlanValidationOptions {
  /** Story root (absolute): relative toolPaths resolve against it; `<root>/skills` holds its skills. */
  readonly root: string;
  /** Further directories whose scripts a plan may run (e.g. the bundled skills). */
  readonly extraSkillRoots?: readonly string[];
  /** Folders outside the skill directories whose scripts a plan may run (setting `narratoria.allowedToolRoots`, CLI `--allow-tool-root`). */
  readonly allowedToolRoots?: readonly string[];
  /** Allow scripts outside the skill directories (CLI: `--allow-outside-skills`). Default false. */
  readonly allowOutsideSkills?: boolean;
  /** Resolve and check every toolPath on disk. Default true. */
  readonly checkToolPaths?: boolean;
  /**
   * The story's skills. With toolPaths checked, each resolved script is looked up in it: inputs are
   * checked against input schemas, and undeclared scripts, disabled and permanently failing skills warned about.
   */
  readonly skills?: SkillCatalog;
  /** Skill folders whose skill.json is broken: a tool whose resolved toolPath lies in one is an error (SKILL_BROKEN). */
  readonly brokenSkills?: readonly BrokenSkill[];
}

/** Outcome of validating one plan. */
export interface PlanValidationResult {
  /** True when no diagnostic has severity 'error'. */
  readonly valid: boolean;
  /** The plan, set when the text parsed and the schema passed (semantic errors may remain: check `valid`). */
  readonly plan: Plan | undefined;
  /** Every problem found, sorted by position in the document. */
  readonly diagnostics: Diagnostic[];
  /** toolId → real path of its script, for each toolPath that resolved within the policy. */
  readonly resolvedToolPaths: ReadonlyMap<string, string>;
}

/** Most syntax errors reported for one text (one per line: the rest usually follow from the first). */
const MAX_SYNTAX_DIAGNOSTICS = 20;

/** Validates the text of a plan file; diagnostics carry source ranges. Never throws for a bad plan. */
export async function validatePlanText(text: string, options: PlanValidationOptions): Promise<PlanValidationResult> {
  const document = parseJsonDocument(text);
  const collector = new DiagnosticCollector(document, document.value);
  if (document.syntaxProblems.length > 0) {
    const linesSeen = new Set<number>();
    for (const problem of document.syntaxProblems) {
      const range = document.rangeAt(problem.offset, problem.length);
      if (linesSeen.has(range.start.line) || linesSeen.size >= MAX_SYNTAX_DIAGNOSTICS) continue;
      linesSeen.add(range.start.line);
      const message = `invalid JSON: ${problem.message}`;
      collector.add({ severity: 'error', code: DiagnosticCode.JSON_SYNTAX, message, pointer: problem.pointer }, range);
    }
    return collector.result(undefined, noResolvedToolPaths);
  }
  for (const extension of document.extensions) {
    const message =
      extension.kind === 'trailingComma'
        ? "trailing comma: a plan is JSON, which does not allow a comma before '}' or ']'; other tools may reject this file"
        : 'comment: a plan is JSON, which has no comments; other tools may reject this file';
    const range = document.rangeAt(extension.offset, extension.length);
    collector.add({ severity: 'warning', code: DiagnosticCode.JSON_COMMENT, message, pointer: '' }, range);
  }
  return validateParsed(document.value, collector, options);
}

/** Validates an in-memory plan value (e.g. parsed from an LLM reply); diagnostics have no ranges. */
export async function validatePlanValue(value: unknown, options: PlanValidationOptions): Promise<PlanValidationResult> {
  return validateParsed(value, new DiagnosticCollector(undefined, value), options);
}

function validateParsed(value: unknown, collector: DiagnosticCollector, options: PlanValidationOptions): PlanValidationResult {
  // The strict schema describes what this project writes. A plan it accepts has no key the runtime does not
  // read, so the usual plan is checked once. Otherwise the plan is read tolerantly
  // (docs/plan-json-and-protocol.md#compatibility-with-other-narratoria-runtimes): annotations dropped, unknown
  // keys warned about, and the schema checks the rest.
  const validate = contractValidator('plan-json.schema.json');
  let schemaValid = validate(value) === true;
  if (!schemaValid) {
    const reading = readPlanTolerantly(value);
    for (const draft of reading.drafts) collector.add(draft);
    // Nothing dropped: the errors of the first check stand.
    if (reading.strictValue !== value) schemaValid = validate(reading.strictValue) === true;
  }
  if (!schemaValid) {
    const tolerated = tolerateSchemaErrors([...(validate.errors ?? [])], value);
    for (const draft of tolerated.drafts) collector.add(draft);
    schemaValid = tolerated.errors.length === 0;
    for (const problem of schemaProblems(tolerated.errors, value, contractSchemas['plan-json.schema.json'])) {
      collector.add({ severity: 'error', ...problem });
    }
  }

  let resolvedToolPaths = noResolvedToolPaths;
  const record = asRecord(value);
  if (record && Array.isArray(record['tools'])) {
    const tools = viewTools(record['tools']);
    const drafts: DiagnosticDraft[] = [];
    const toolIds = checkToolIds(tools, drafts);
    const dependencyTargets = checkDependencies(tools, toolIds, drafts);
    checkCycles(tools, toolIds, dependencyTargets, drafts);
    checkConditions(tools, drafts);
    let resolutions: ToolPathResolutions | undefined;
    if (options.checkToolPaths !== false) {
      const policy = toolPathPolicy(options);
      checkSubPlans(tools, policy, drafts);
      resolutions = checkToolPaths(tools, policy, drafts);
      resolvedToolPaths = resolvedToolPathsOf(tools, toolIds, resolutions);
    }
    checkDisabledSkills(tools, record['disabledSkills'], resolutions, drafts);
    if (options.skills && resolutions) checkSkillCatalog(tools, resolutions, options.skills, options.root, drafts);
    if (options.brokenSkills && options.brokenSkills.length > 0 && resolutions)
      checkBrokenSkills(tools, resolutions, options.brokenSkills, options.root, drafts);
    if (tools.length === 0) {
      const message = 'the plan has no tools; running it only shows its narrative';
      drafts.push({ severity: 'info', code: DiagnosticCode.EMPTY_PLAN, message, pointer: '/tools' });
    }
    for (const draft of drafts) collector.add(draft);
  }
  return collector.result(schemaValid ? (value as Plan) : undefined, resolvedToolPaths);
}

const noResolvedToolPaths = (): ReadonlyMap<string, string> => new Map();

/**
 * Builds the resolvedToolPaths of a result from this validation's own records (the views hold the
 * toolIds as read then), so reading them later gives the answer of the validation, whatever happened since.
 */
function resolvedToolPathsOf(tools: readonly ToolView[], toolIds: ToolIdIndex, resolutions: ToolPathResolutions): () => ReadonlyMap<string, string> {
  const { numberOfTool } = resolutions;
  const firstIndexById = toolIds.unique ? undefined : toolIds.firstIndexById;
  return () => {
    const resolved = new Map<string, string>();
    for (let index = 0; index < tools.length; index++) {
      const number = numberOfTool[index]!;
      const resolution = number >= 0 ? resolutions.resolutions[number]! : undefined;
      const toolId = tools[index]!.toolId;
      if (resolution?.ok && toolId !== undefined && (firstIndexById === undefined || firstIndexById.get(toolId) === index)) {
        resolved.set(toolId, resolution.realPath);
      }
    }
    return resolved;
  };
}

function toolPathPolicy(options: PlanValidationOptions): ToolPathPolicy {
  return {
    root: options.root,
    ...(options.extraSkillRoots ? { extraSkillRoots: options.extraSkillRoots } : {}),
    ...(options.allowedToolRoots ? { allowedToolRoots: options.allowedToolRoots } : {}),
    ...(options.allowOutsideSkills !== undefined ? { allowOutsideSkills: options.allowOutsideSkills } : {}),
  };
}

/** Accumulates diagnostics, attaching source ranges when a document is known, and sorts them by position. */
class DiagnosticCollector {
  private readonly diagnostics: Diagnostic[] = [];

  constructor(
    private readonly document: JsonDocument | undefined,
    private readonly value: unknown,
  ) {}

  /**
   * Adds a diagnostic; its range is `range`, or else located in the document: the span of the string
   * at its pointer (`stringSpan`), or the value (or key) at its `rangePointer` or pointer.
   */
  add(draft: DiagnosticDraft, range?: SourceRange): void {
    const { target, related, rangePointer, stringSpan, ...diagnostic } = draft;
    const located =
      range ??
      (stringSpan && this.document ? rangeInStringLiteral(this.document, draft.pointer, stringSpan) : undefined) ??
      this.document?.rangeOfPointer(rangePointer ?? draft.pointer, target ?? 'value');
    const relatedWithRanges = related?.map((information) => {
      const relatedRange = this.document?.rangeOfPointer(information.pointer);
      return relatedRange ? { ...information, range: relatedRange } : information;
    });
    this.diagnostics.push({
      ...diagnostic,
      ...(located ? { range: located } : {}),
      ...(relatedWithRanges && relatedWithRanges.length > 0 ? { related: relatedWithRanges } : {}),
    });
  }

  /** The result: diagnostics by range, or by document order of their pointers when there is no text. */
  result(plan: Plan | undefined, resolvedToolPaths: () => ReadonlyMap<string, string>): PlanValidationResult {
    const order = new Map(this.diagnostics.map((diagnostic) => [diagnostic, documentOrder(this.value, diagnostic.pointer)] as const));
    const diagnostics = [...this.diagnostics].sort((left, right) => {
      if (left.range && right.range) {
        return comparePositions(left.range.start, right.range.start) || comparePositions(left.range.end, right.range.end);
      }
      if (left.range || right.range) return left.range ? -1 : 1;
      return compareOrder(order.get(left)!, order.get(right)!);
    });
    let built: ReadonlyMap<string, string> | undefined;
    return {
      valid: !diagnostics.some((diagnostic) => diagnostic.severity === 'error'),
      plan,
      diagnostics,
      // Built on first read: the editor never reads it, and for a large plan the Map costs as much as a check.
      get resolvedToolPaths() {
        return (built ??= resolvedToolPaths());
      },
    };
  }
}

/** Never read: keeps the collector's hidden class alive across garbage collections (see keptDocument in jsonLocator). */
const keptCollector = new DiagnosticCollector(undefined, undefined);
void keptCollector;

/** Position of a pointer in an in-memory value as key/index ordinals (document order without a text). */
function documentOrder(value: unknown, pointer: string): number[] {
  const order: number[] = [];
  let current = value;
  for (const segment of parsePointer(pointer)) {
    let position = -1;
    if (Array.isArray(current)) {
      if (/^\d+$/.test(segment) && Number(segment) < current.length) position = Number(segment);
    } else {
      position = Object.keys(asRecord(current) ?? {}).indexOf(segment);
    }
    if (position < 0) break;
    order.push(position);
    current = (current as Record<string, unknown>)[segment];
  }
  return order;
}

function compareOrder(left: readonly number[], right: readonly number[]): number {
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    if (left[index] !== right[index]) return left[index]! - right[index]!;
  }
  return left.length - right.length;
}
