// The health of a campaign view's entries: the diagnostics of a file, of a range of it (a beat), or of many files, and the worst severity among them. Pure.
import type { SourceRange } from '../../validation/diagnostic.js';
import type { CampaignDiagnostic } from '../campaignDiagnostic.js';

/** Worst first: `healthy` when an entry has no diagnostic, `info` when it has only infos. */
export type HealthLevel = 'error' | 'warning' | 'info' | 'healthy';

/** An entry's health: its level and the diagnostics behind it (in file and position order). */
export interface EntryHealth {
  readonly level: HealthLevel;
  readonly diagnostics: readonly CampaignDiagnostic[];
}

export const HEALTHY: EntryHealth = { level: 'healthy', diagnostics: [] };

const RANK: Readonly<Record<HealthLevel, number>> = { error: 3, warning: 2, info: 1, healthy: 0 };

/** The worse of two levels. */
export function worse(left: HealthLevel, right: HealthLevel): HealthLevel {
  return RANK[left] >= RANK[right] ? left : right;
}

/** The health of a list of diagnostics. */
export function healthOf(diagnostics: readonly CampaignDiagnostic[]): EntryHealth {
  if (diagnostics.length === 0) return HEALTHY;
  const level = diagnostics.reduce<HealthLevel>((worst, diagnostic) => worse(worst, diagnostic.severity), 'healthy');
  return { level, diagnostics };
}

/** The health of several entries together (a section and what it holds), each diagnostic once. */
export function combinedHealth(healths: readonly EntryHealth[]): EntryHealth {
  return healthOf([...new Set(healths.flatMap((health) => health.diagnostics))]);
}

/** The diagnostics of a campaign, by file, for quick lookups. */
export class DiagnosticsByFile {
  private readonly byFile = new Map<string, CampaignDiagnostic[]>();
  private readonly claimed = new Set<CampaignDiagnostic>();

  constructor(readonly all: readonly CampaignDiagnostic[]) {
    for (const diagnostic of all) {
      const list = this.byFile.get(diagnostic.file);
      if (list) list.push(diagnostic);
      else this.byFile.set(diagnostic.file, [diagnostic]);
    }
  }

  /** The health of one file (every diagnostic in it); marks them shown. */
  file(path: string): EntryHealth {
    return this.claim(this.byFile.get(path) ?? []);
  }

  /** The health of several files. */
  files(paths: readonly string[]): EntryHealth {
    return this.claim(paths.flatMap((path) => this.byFile.get(path) ?? []));
  }

  /** The health of a range of a file: the diagnostics that start inside it. */
  range(path: string, range: SourceRange | undefined): EntryHealth {
    if (!range) return HEALTHY;
    return this.claim((this.byFile.get(path) ?? []).filter((diagnostic) => diagnostic.range !== undefined && inside(diagnostic.range, range)));
  }

  /** The diagnostics no entry has shown yet (a folder's, a file the tree does not list). */
  unclaimed(): CampaignDiagnostic[] {
    return this.all.filter((diagnostic) => !this.claimed.has(diagnostic));
  }

  private claim(diagnostics: readonly CampaignDiagnostic[]): EntryHealth {
    for (const diagnostic of diagnostics) this.claimed.add(diagnostic);
    return healthOf(diagnostics);
  }
}

function inside(inner: SourceRange, outer: SourceRange): boolean {
  const start = inner.start;
  const afterStart = start.line > outer.start.line || (start.line === outer.start.line && start.column >= outer.start.column);
  const beforeEnd = start.line < outer.end.line || (start.line === outer.end.line && start.column < outer.end.column);
  return afterStart && beforeEnd;
}
