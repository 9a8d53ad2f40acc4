// Quick fixes of dependency diagnostics: replace or remove an unknown dependency, remove a self-dependency, break a cycle by removing one of its edges. Pure.
import type { Diagnostic } from '../validation/diagnostic.js';
import { closestMatch } from '../validation/closestMatch.js';
import { parsePointer } from '../validation/jsonLocator.js';
import type { DependencyEntry, PlanDocument, PlanTool } from './planDocument.js';
import { toolOfSegments, type FixOperation, type FixProposal, type MemberList } from './quickFixEdits.js';

/** The fixes of an UNKNOWN_DEPENDENCY, SELF_DEPENDENCY or DEPENDENCY_CYCLE diagnostic whose pointer is `segments`. */
export function dependencyFixes(document: PlanDocument, diagnostic: Diagnostic, segments: readonly string[]): FixProposal[] {
  switch (diagnostic.code as string) {
    case 'UNKNOWN_DEPENDENCY':
      return unknownDependencyFixes(document, segments);
    case 'SELF_DEPENDENCY':
      return selfDependencyFixes(document, segments);
    case 'DEPENDENCY_CYCLE':
      return cycleFixes(document, diagnostic);
    default:
      return [];
  }
}

function unknownDependencyFixes(document: PlanDocument, segments: readonly string[]): FixProposal[] {
  const found = dependencyAt(document, segments);
  const name = found?.entry.value;
  if (!found || name === undefined || document.toolById(name) !== undefined) return [];
  const { tool, entry } = found;
  // The replacement must name another tool that this one does not already wait for.
  const listed = new Set(tool.dependencies?.entries.map((listedEntry) => listedEntry.value));
  const candidates = document.toolIds().filter((id) => id !== tool.toolId?.value && !listed.has(id));
  const suggestion = closestMatch(name, candidates);
  const proposals: FixProposal[] = [];
  if (suggestion !== undefined) {
    proposals.push({
      title: `Replace with "${suggestion}"`,
      operations: [{ kind: 'replace', span: entry.span, newText: JSON.stringify(suggestion) }],
      isPreferred: true,
      fixAllGroup: 'replaceUnknownDependencies',
    });
  }
  proposals.push({ title: `Remove dependency "${name}"`, operations: [removal(tool, entry)], fixAllGroup: 'removeUnknownDependencies' });
  return proposals;
}

function selfDependencyFixes(document: PlanDocument, segments: readonly string[]): FixProposal[] {
  const found = dependencyAt(document, segments);
  const name = found?.entry.value;
  if (!found || name === undefined || name !== found.tool.toolId?.value) return [];
  return [
    {
      title: `Remove the self-dependency "${name}"`,
      operations: [removal(found.tool, found.entry)],
      isPreferred: true,
      fixAllGroup: 'removeSelfDependencies',
    },
  ];
}

/**
 * One fix per edge of the cycle: "Remove dependency b → c" drops "c" from b's dependencies. The
 * edges come from the path in the message (`a -> b -> c -> a`), else from the pointer and related locations.
 */
function cycleFixes(document: PlanDocument, diagnostic: Diagnostic): FixProposal[] {
  const edges: { tool: PlanTool; entry: DependencyEntry }[] = [];
  const add = (edge: { tool: PlanTool; entry: DependencyEntry } | undefined): void => {
    if (edge && edge.entry.value !== undefined && !edges.some((known) => known.entry.pointer === edge.entry.pointer)) edges.push(edge);
  };
  const cycle = /dependency cycle: (\S+(?: -> \S+)+)/.exec(diagnostic.message)?.[1]?.split(' -> ');
  if (cycle) {
    for (let step = 0; step + 1 < cycle.length; step++) {
      const tool = document.toolById(cycle[step]!);
      const entry = tool?.dependencies?.entries.find((candidate) => candidate.value === cycle[step + 1]);
      add(tool && entry ? { tool, entry } : undefined);
    }
  }
  if (edges.length === 0) {
    for (const pointer of [diagnostic.pointer, ...(diagnostic.related ?? []).map((information) => information.pointer)]) {
      add(dependencyAt(document, segmentsOf(pointer)));
    }
  }
  return edges.map(({ tool, entry }) => ({
    title: `Remove dependency ${tool.toolId?.value ?? `tools/${tool.index}`} → ${entry.value}`,
    operations: [removal(tool, entry)],
  }));
}

/** The dependency entry at `/tools/<i>/dependencies/<j>`. */
function dependencyAt(document: PlanDocument, segments: readonly string[]): { tool: PlanTool; entry: DependencyEntry } | undefined {
  const tool = toolOfSegments(document, segments);
  if (!tool || segments[2] !== 'dependencies' || segments.length !== 4) return undefined;
  const entry = tool.dependencies?.entries.find((candidate) => String(candidate.index) === segments[3]);
  return entry ? { tool, entry } : undefined;
}

/** Removing an entry from its tool's dependencies. */
function removal(tool: PlanTool, entry: DependencyEntry): FixOperation {
  const dependencies = tool.dependencies!;
  const list: MemberList = { key: `${tool.pointer}/dependencies`, span: dependencies.span, members: dependencies.entries.map((item) => item.span) };
  return { kind: 'removeMember', list, index: entry.index };
}

function segmentsOf(pointer: string): string[] {
  try {
    return parsePointer(pointer);
  } catch {
    return [];
  }
}
