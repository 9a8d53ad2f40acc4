// Quick fixes of plan values: a missing toolPath's closest scripts, an aliased toolPath's canonical one, retry-policy bounds, unknown input properties, a missing or malformed requestId. Pure.
import type { Diagnostic } from '../validation/diagnostic.js';
import { closestMatch } from '../validation/closestMatch.js';
import { insertFirstPropertyEdit, toolOfSegments, type FixContext, type FixProposal, type MemberList } from './quickFixEdits.js';
import { suggestToolPaths } from './toolPathSuggestions.js';

/** The bounds of each retry-policy field (contracts/plan-json.schema.json `#/$defs/RetryPolicy`). */
const RETRY_POLICY_BOUNDS = { maxRetries: { minimum: 0, maximum: 10 }, backoffMs: { minimum: 0, maximum: 60000 } } as const;

/** TOOL_PATH_NOT_FOUND at `/tools/<i>/toolPath` or `/tools/<i>/rollback/toolPath`: change it to a likely catalogued script (up to 3). */
export function toolPathFixes(context: FixContext, segments: readonly string[]): FixProposal[] {
  const tool = toolOfSegments(context.document, segments);
  const rest = segments.slice(2).join('/');
  const field = rest === 'toolPath' ? tool?.toolPath : rest === 'rollback/toolPath' ? tool?.rollbackToolPath : undefined;
  if (!field || context.catalog.scriptByToolPath(field.value) !== undefined) return [];
  return suggestToolPaths(field.value, context.catalog).map((suggestion, position) => ({
    title: `Change to ${suggestion.toolPath}`,
    operations: [{ kind: 'replace', span: field.span, newText: JSON.stringify(suggestion.toolPath) }],
    ...(position === 0 && suggestion.close ? { isPreferred: true } : {}),
  }));
}

/** SCRIPT_ALIAS at a toolPath: change it to the canonical toolPath of the script it names by another name. */
export function aliasFixes(context: FixContext, segments: readonly string[]): FixProposal[] {
  const tool = toolOfSegments(context.document, segments);
  const rest = segments.slice(2).join('/');
  const field = rest === 'toolPath' ? tool?.toolPath : rest === 'rollback/toolPath' ? tool?.rollbackToolPath : undefined;
  const found = field ? context.catalog.scriptByToolPath(field.value) : undefined;
  if (!field || !found?.named) return [];
  return [
    {
      title: `Change to ${found.script.toolPath}`,
      operations: [{ kind: 'replace', span: field.span, newText: JSON.stringify(found.script.toolPath) }],
      isPreferred: true,
    },
  ];
}

/** A retryPolicy maxRetries or backoffMs out of range or not an integer: round it and clamp it into its bounds. */
export function retryPolicyFixes(context: FixContext, segments: readonly string[]): FixProposal[] {
  const tool = toolOfSegments(context.document, segments);
  const name = segments[3];
  if (!tool?.retryPolicy || segments.length !== 4 || segments[2] !== 'retryPolicy' || (name !== 'maxRetries' && name !== 'backoffMs')) return [];
  const field = tool.retryPolicy[name];
  const value = field?.value;
  if (!field || value === undefined || Number.isNaN(value)) return [];
  const { minimum, maximum } = RETRY_POLICY_BOUNDS[name];
  const fixed = Math.min(maximum, Math.max(minimum, Math.round(value))) + 0;
  if (fixed === value) return [];
  return [
    {
      title: `Change ${name} to ${fixed}`,
      operations: [{ kind: 'replace', span: field.span, newText: String(fixed) }],
      isPreferred: true,
      fixAllGroup: 'clampRetryPolicies',
    },
  ];
}

/**
 * INPUT_UNKNOWN_PROPERTY at `/tools/<i>/input/<name>`: rename the key to the closest property of the
 * script's inputSchema that the input does not have yet (or the message's "did you mean"), and remove it.
 */
export function inputPropertyFixes(context: FixContext, diagnostic: Diagnostic, segments: readonly string[]): FixProposal[] {
  const tool = toolOfSegments(context.document, segments);
  const input = tool?.input;
  if (!tool || !input || segments.length !== 4 || segments[2] !== 'input') return [];
  const index = input.properties.findLastIndex((candidate) => candidate.name === segments[3]);
  const property = input.properties[index];
  if (!property) return [];
  const present = new Set(input.properties.map((candidate) => candidate.name));
  const toolPath = tool.toolPath?.value;
  const schema = toolPath === undefined ? undefined : context.catalog.scriptByToolPath(toolPath)?.script.inputSchema;
  const known = schema?.['properties'];
  const names = known !== null && typeof known === 'object' && !Array.isArray(known) ? Object.keys(known) : [];
  const hinted = /did you mean "([^"\\]+)"\?/.exec(diagnostic.message)?.[1];
  const suggestion =
    closestMatch(
      property.name,
      names.filter((name) => !present.has(name)),
    ) ?? (hinted !== undefined && !present.has(hinted) ? hinted : undefined);
  const proposals: FixProposal[] = [];
  if (suggestion !== undefined) {
    proposals.push({
      title: `Rename "${property.name}" to "${suggestion}"`,
      operations: [{ kind: 'replace', span: property.keySpan, newText: JSON.stringify(suggestion) }],
      isPreferred: true,
      fixAllGroup: 'renameUnknownInputProperties',
    });
  }
  if (input.properties.every((candidate) => candidate.valueSpan !== undefined)) {
    const list: MemberList = {
      key: `${tool.pointer}/input`,
      span: input.span,
      members: input.properties.map((candidate) => ({
        offset: candidate.keySpan.offset,
        length: candidate.valueSpan!.offset + candidate.valueSpan!.length - candidate.keySpan.offset,
      })),
    };
    proposals.push({ title: `Remove the input property "${property.name}"`, operations: [{ kind: 'removeMember', list, index }] });
  }
  return proposals;
}

/**
 * A missing requestId (SCHEMA_REQUIRED at `/requestId`): insert one with a new UUID as the first
 * property; a requestId that is not a UUID (SCHEMA_FORMAT): replace it with a new one.
 */
export function requestIdFixes(context: FixContext, diagnostic: Diagnostic, segments: readonly string[]): FixProposal[] {
  const { document } = context;
  const root = document.tree?.type === 'object' ? document.tree : undefined;
  if (!root || segments.length !== 1 || segments[0] !== 'requestId') return [];
  const hasKey = (root.children ?? []).some((property) => property.children?.[0]?.value === 'requestId');
  if (diagnostic.code === 'SCHEMA_REQUIRED' && !hasKey) {
    const edit = insertFirstPropertyEdit(document.text, root, 'requestId', JSON.stringify(context.newUuid()));
    return [{ title: 'Add a "requestId" with a new UUID', operations: [{ kind: 'replace', span: edit, newText: edit.newText }], isPreferred: true }];
  }
  if (diagnostic.code === 'SCHEMA_FORMAT' && document.requestId) {
    const newText = JSON.stringify(context.newUuid());
    return [{ title: 'Replace the requestId with a new UUID', operations: [{ kind: 'replace', span: document.requestId.span, newText }], isPreferred: true }];
  }
  return [];
}
