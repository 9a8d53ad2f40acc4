// Document links of a plan: every toolPath, rollback toolPath and subPlan that names an existing file, and the file resolution they share with Go to Definition.
import { statSync } from 'node:fs';
import * as path from 'node:path';
import type { CatalogScript, CatalogSkill, SkillCatalog } from '../skills/skillCatalog.js';
import type { PlanDocument, StringField } from './planDocument.js';
import { stringContentSpan, type TextSpan } from './textSpan.js';

/** A clickable file reference in a plan. */
export interface PlanLink {
  /** The string's content (without its quotes). */
  readonly span: TextSpan;
  /** Absolute path of the file it opens. */
  readonly target: string;
  readonly tooltip: string;
}

/** Where a toolPath leads: the file, and the catalogued script when the catalog knows it. */
export interface ResolvedScriptFile {
  readonly file: string;
  readonly catalogued: { readonly skill: CatalogSkill; readonly script: CatalogScript } | undefined;
}

/** The links of every toolPath, rollback toolPath and subPlan that resolves to an existing file, in document order. */
export function planLinks(document: PlanDocument, catalog: SkillCatalog, root?: string): PlanLink[] {
  const links: PlanLink[] = [];
  for (const tool of document.tools) {
    const fields: { field: StringField | undefined; rollback: boolean }[] = [
      { field: tool.toolPath, rollback: false },
      { field: tool.rollbackToolPath, rollback: true },
    ];
    for (const { field, rollback } of fields) {
      if (!field) continue;
      const resolved = resolveScriptFile(field.value, catalog, root);
      if (resolved) links.push({ span: stringContentSpan(field.span), target: resolved.file, tooltip: scriptTooltip(resolved, rollback) });
    }
    if (tool.subPlan) {
      const file = resolveStoryFile(tool.subPlan.value, root);
      if (file) links.push({ span: stringContentSpan(tool.subPlan.span), target: file, tooltip: `Open the sub-plan ${file}` });
    }
  }
  return links.sort((left, right) => left.span.offset - right.span.offset);
}

/**
 * The file a toolPath names: the catalogued script's real path when the catalog knows the toolPath,
 * else the existing regular file it names (absolute, or relative to `root`).
 */
export function resolveScriptFile(toolPath: string, catalog: SkillCatalog, root: string | undefined): ResolvedScriptFile | undefined {
  const catalogued = toolPath === '' ? undefined : catalog.scriptByToolPath(toolPath);
  if (catalogued) return { file: catalogued.script.path, catalogued };
  const file = resolveStoryFile(toolPath, root);
  return file ? { file, catalogued: undefined } : undefined;
}

/** The existing regular file a path of the plan names: absolute, or relative to the story root (none without a root). */
export function resolveStoryFile(value: string, root: string | undefined): string | undefined {
  if (value === '' || value.includes('\0')) return undefined;
  const file = path.isAbsolute(value) ? path.normalize(value) : root !== undefined ? path.resolve(root, value) : undefined;
  return file !== undefined && isFile(file) ? file : undefined;
}

function scriptTooltip(resolved: ResolvedScriptFile, rollback: boolean): string {
  const role = rollback ? 'rollback script' : 'script';
  if (!resolved.catalogued) return `Open the ${role} ${resolved.file}`;
  const { skill, script } = resolved.catalogued;
  return `Open the ${role} "${script.name}" of the skill "${skill.displayName}" (${resolved.file})`;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
