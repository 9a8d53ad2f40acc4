// Turns the runtime's coverage of a skill script (istanbul positions) into VS Code's FileCoverage and its statement, branch and declaration details. Translation only.
import * as vscode from 'vscode';
import type { CoverageRange, FileCoverageData } from '../../runtime/coverage/coverageTypes.js';

/** A FileCoverage that carries its details, so the profile's loadDetailedCoverage needs no lookup. */
export class SkillFileCoverage extends vscode.FileCoverage {
  constructor(readonly data: FileCoverageData) {
    super(
      vscode.Uri.file(data.file),
      new vscode.TestCoverageCount(data.statements.covered, data.statements.total),
      data.branches.total > 0 ? new vscode.TestCoverageCount(data.branches.covered, data.branches.total) : undefined,
      data.functions.total > 0 ? new vscode.TestCoverageCount(data.functions.covered, data.functions.total) : undefined,
    );
  }
}

/** Statements (with the arms of each branch on the statement of the line it starts on) and declarations. */
export function coverageDetails(data: FileCoverageData): vscode.FileCoverageDetail[] {
  const statements = data.details.statements.map((statement) => ({
    executed: statement.count,
    range: rangeOf(statement.range),
    branches: [] as vscode.BranchCoverage[],
  }));
  const byLine = new Map(statements.map((statement) => [statement.range.start.line, statement] as const));
  const extra: typeof statements = [];
  const groups = new Map<number, (typeof data.details.branches)[number][]>();
  for (const arm of data.details.branches) {
    const arms = groups.get(arm.branch);
    if (arms) arms.push(arm);
    else groups.set(arm.branch, [arm]);
  }
  for (const arms of groups.values()) {
    const first = arms[0]!;
    let statement = byLine.get(first.range.start.line - 1);
    if (!statement) {
      statement = { executed: arms.reduce((sum, arm) => sum + arm.count, 0), range: rangeOf(first.range), branches: [] };
      extra.push(statement);
    }
    arms.forEach((arm, index) =>
      statement.branches.push(new vscode.BranchCoverage(arm.count, rangeOf(arm.range), arms.length > 1 ? `arm ${index + 1} of ${arms.length}` : undefined)),
    );
  }
  return [
    ...[...statements, ...extra].map((statement) => new vscode.StatementCoverage(statement.executed, statement.range, statement.branches)),
    ...data.details.functions.map(
      (declaration) => new vscode.DeclarationCoverage(declaration.name || '(anonymous)', declaration.count, rangeOf(declaration.range)),
    ),
  ];
}

/** istanbul's lines are 1-based and its columns 0-based; VS Code's are both 0-based. */
function rangeOf(range: CoverageRange): vscode.Range {
  const startLine = Math.max(0, range.start.line - 1);
  const endLine = Math.max(startLine, range.end.line - 1);
  return new vscode.Range(startLine, Math.max(0, range.start.character), endLine, Math.max(0, range.end.character));
}
