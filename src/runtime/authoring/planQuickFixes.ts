// Quick fixes of plan diagnostics: each diagnostic (found in the model through its JSON pointer) → code actions with text edits, and fix-all over one group. Pure.
import { randomUUID } from 'node:crypto';
import type { SkillCatalog } from '../skills/skillCatalog.js';
import type { Diagnostic } from '../validation/diagnostic.js';
import { parsePointer } from '../validation/jsonLocator.js';
import { dependencyFixes } from './dependencyFixes.js';
import type { PlanDocument } from './planDocument.js';
import { editsOfOperations, type FixAllGroup, type FixContext, type FixProposal } from './quickFixEdits.js';
import type { TextEdit } from './textSpan.js';
import { outsideSkillsFixes } from './toolRootFixes.js';
import { aliasFixes, inputPropertyFixes, requestIdFixes, retryPolicyFixes, toolPathFixes } from './valueFixes.js';

export type { FixAllGroup } from './quickFixEdits.js';

/** One code action: the edits fixing one diagnostic. */
export interface PlanCodeAction {
  readonly title: string;
  readonly kind: 'quickfix';
  /** The diagnostic this action fixes. */
  readonly diagnostic: Diagnostic;
  /** Non-overlapping edits of the plan text (apply with applyTextEdits). */
  readonly edits: readonly TextEdit[];
  /** The likely fix (an editor may apply it with one keystroke). */
  readonly isPreferred?: boolean;
  /** Set when {@link planFixAll} can apply the same kind of fix to every such diagnostic at once. */
  readonly fixAllGroup?: FixAllGroup;
}

/** Options of the quick fixes. */
export interface QuickFixOptions {
  /** Makes the UUID of an inserted requestId (default: crypto.randomUUID). */
  readonly newUuid?: (() => string) | undefined;
}

/** The title of the fix-all action of each group. */
export const FIX_ALL_TITLES: Readonly<Record<FixAllGroup, string>> = {
  replaceUnknownDependencies: 'Fix all unknown dependencies in file (use the closest toolIds)',
  removeUnknownDependencies: 'Remove all unknown dependencies in file',
  removeSelfDependencies: 'Remove all self-dependencies in file',
  clampRetryPolicies: 'Bring all retry policies in file into range',
  renameUnknownInputProperties: 'Rename all unknown input properties in file to the closest known ones',
};

/**
 * The quick fixes of the given diagnostics (those of the document's current text). Each diagnostic
 * is mapped to the model through its pointer and checked against it, so a stale diagnostic gets no
 * fix. A text that is not well-formed gets none.
 */
export function planQuickFixes(
  document: PlanDocument,
  diagnostics: readonly Diagnostic[],
  catalog: SkillCatalog,
  options: QuickFixOptions = {},
): PlanCodeAction[] {
  if (!document.isWellFormed) return [];
  const context = fixContext(document, catalog, options);
  return diagnostics.flatMap((diagnostic) =>
    proposalsFor(context, diagnostic).map(
      (proposal): PlanCodeAction => ({
        title: proposal.title,
        kind: 'quickfix',
        diagnostic,
        edits: editsOfOperations(document.text, proposal.operations),
        ...(proposal.isPreferred ? { isPreferred: true } : {}),
        ...(proposal.fixAllGroup ? { fixAllGroup: proposal.fixAllGroup } : {}),
      }),
    ),
  );
}

/**
 * The edits applying, for every diagnostic with a fix of `fixAllGroup`, that fix (the preferred
 * one when it has several), merged so that they never overlap: removals from one array are joined,
 * and an edit overlapping an earlier one is left out.
 */
export function planFixAll(
  document: PlanDocument,
  diagnostics: readonly Diagnostic[],
  catalog: SkillCatalog,
  fixAllGroup: string,
  options: QuickFixOptions = {},
): TextEdit[] {
  if (!document.isWellFormed) return [];
  const context = fixContext(document, catalog, options);
  const seen = new Set<string>();
  const operations = diagnostics.flatMap((diagnostic) => {
    const key = `${diagnostic.code} ${diagnostic.pointer}`;
    if (seen.has(key)) return [];
    seen.add(key);
    const proposals = proposalsFor(context, diagnostic).filter((proposal) => proposal.fixAllGroup === fixAllGroup);
    return (proposals.find((proposal) => proposal.isPreferred) ?? proposals[0])?.operations ?? [];
  });
  return editsOfOperations(document.text, operations);
}

function fixContext(document: PlanDocument, catalog: SkillCatalog, options: QuickFixOptions): FixContext {
  return { document, catalog, newUuid: options.newUuid ?? randomUUID };
}

function proposalsFor(context: FixContext, diagnostic: Diagnostic): FixProposal[] {
  let segments: string[];
  try {
    segments = parsePointer(diagnostic.pointer);
  } catch {
    return [];
  }
  // Codes are matched as strings: the list of codes grows with the validator.
  switch (diagnostic.code as string) {
    case 'UNKNOWN_DEPENDENCY':
    case 'SELF_DEPENDENCY':
    case 'DEPENDENCY_CYCLE':
      return dependencyFixes(context.document, diagnostic, segments);
    case 'TOOL_PATH_NOT_FOUND':
      return toolPathFixes(context, segments);
    case 'TOOL_PATH_OUTSIDE_SKILLS':
      return outsideSkillsFixes(context, segments);
    case 'SCRIPT_ALIAS':
      return aliasFixes(context, segments);
    case 'RETRY_POLICY_OUT_OF_RANGE':
    case 'RETRY_POLICY_CLAMPED':
    case 'SCHEMA_VIOLATION':
    case 'SCHEMA_TYPE':
      return retryPolicyFixes(context, segments);
    case 'INPUT_UNKNOWN_PROPERTY':
      return inputPropertyFixes(context, diagnostic, segments);
    case 'SCHEMA_REQUIRED':
    case 'SCHEMA_FORMAT':
      return requestIdFixes(context, diagnostic, segments);
    default:
      return [];
  }
}
