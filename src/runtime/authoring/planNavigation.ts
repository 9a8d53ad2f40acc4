// Navigation in a plan document: Go to Definition (toolIds, script files, input-schema properties), Find All References and Rename of toolIds.
import { readFileSync } from 'node:fs';
import type { SkillCatalog } from '../skills/skillCatalog.js';
import type { SourceRange } from '../validation/diagnostic.js';
import { parseJsonDocument, pointerFromPath } from '../validation/jsonLocator.js';
import type { PlanDocument, PlanTool } from './planDocument.js';
import { resolveScriptFile, resolveStoryFile } from './planLinks.js';
import { spanTouches, stringContentSpan, type TextSpan } from './textSpan.js';
import { renameToolId, type RenameResult } from './toolRename.js';

/**
 * A place to go: a span of the same document (`file` undefined), or a file with an optional 1-based
 * range (undefined: the start of the file).
 */
export type PlanLocation = { readonly file: undefined; readonly span: TextSpan } | { readonly file: string; readonly range?: SourceRange };

/** Options of {@link definitionAt}. */
export interface DefinitionOptions {
  /** Story root: relative toolPaths and subPlans the catalog does not know resolve against it. */
  readonly root?: string | undefined;
  /** Reads a text file (default: UTF-8 from disk); undefined when it cannot be read. */
  readonly readFile?: ((file: string) => string | undefined) | undefined;
}

/** The outcome of {@link prepareRenameAt}: what to rename and its current name, or why nothing can be. */
export type RenamePreparation = { readonly span: TextSpan; readonly placeholder: string } | { readonly error: string };

/**
 * Where the thing at `offset` is defined. A dependency entry or a toolId → the toolId literal of the
 * (first) tool with that id; a toolPath, rollback toolPath or subPlan → its file; an input property
 * key → the property's key in the script's input schema file (the file's start when the schema
 * does not list it). Empty when there is nothing to go to.
 */
export function definitionAt(document: PlanDocument, offset: number, catalog: SkillCatalog, options: DefinitionOptions = {}): PlanLocation[] {
  const element = document.elementAt(offset);
  switch (element.kind) {
    case 'toolId':
    case 'dependency': {
      const toolId = element.kind === 'toolId' ? element.tool.toolId?.value : element.entry.value;
      const target = toolId === undefined ? undefined : document.toolById(toolId);
      return target?.toolId ? [{ file: undefined, span: target.toolId.span }] : [];
    }
    case 'toolPath': {
      const field = element.rollback ? element.tool.rollbackToolPath : element.tool.toolPath;
      const resolved = field ? resolveScriptFile(field.value, catalog, options.root) : undefined;
      return resolved ? [{ file: resolved.file }] : [];
    }
    case 'inputKey':
      return inputPropertyDefinition(element.tool, element.property.name, catalog, options);
    case 'tool': {
      const subPlan = element.tool.subPlan;
      const file = subPlan && spanTouches(subPlan.span, offset) ? resolveStoryFile(subPlan.value, options.root) : undefined;
      return file ? [{ file }] : [];
    }
    default:
      return [];
  }
}

/**
 * Every place naming the toolId at `offset` (a tool's toolId or a dependency entry): the toolId
 * literals of the tools carrying it (when `includeDeclaration`), then each dependency entry naming
 * it, as string-literal spans (with quotes). Empty elsewhere.
 */
export function referencesAt(document: PlanDocument, offset: number, options: { readonly includeDeclaration: boolean }): TextSpan[] {
  const toolId = toolIdAt(document, offset);
  if (toolId === undefined) return [];
  return document
    .referencesOf(toolId)
    .filter((reference) => options.includeDeclaration || reference.kind !== 'definition')
    .map((reference) => reference.span);
}

/** Checks that the toolId at `offset` can be renamed: the span of its name (without quotes) and the name, or why not. */
export function prepareRenameAt(document: PlanDocument, offset: number): RenamePreparation {
  const element = document.elementAt(offset);
  if (element.kind === 'toolId' && element.tool.toolId) {
    return { span: stringContentSpan(element.tool.toolId.span), placeholder: element.tool.toolId.value };
  }
  if (element.kind === 'dependency') {
    const toolId = element.entry.value;
    if (toolId === undefined) return { error: 'This dependency entry is not a string, so it names no tool.' };
    if (document.toolById(toolId) === undefined) return { error: `No tool has the toolId "${toolId}", so there is nothing to rename.` };
    return { span: stringContentSpan(element.entry.span), placeholder: toolId };
  }
  return { error: 'Only a toolId, or a dependency entry naming one, can be renamed.' };
}

/** The edits renaming the toolId at `offset` (its toolId field or a dependency entry naming it) to `newName` everywhere. */
export function renameAt(document: PlanDocument, offset: number, newName: string): RenameResult {
  const preparation = prepareRenameAt(document, offset);
  if ('error' in preparation) return { ok: false, reason: preparation.error };
  return renameToolId(document, preparation.placeholder, newName);
}

/** The toolId named at `offset`: a toolId field's value or a string dependency entry. */
function toolIdAt(document: PlanDocument, offset: number): string | undefined {
  const element = document.elementAt(offset);
  if (element.kind === 'toolId') return element.tool.toolId?.value;
  if (element.kind === 'dependency') return element.entry.value;
  return undefined;
}

function inputPropertyDefinition(tool: PlanTool, name: string, catalog: SkillCatalog, options: DefinitionOptions): PlanLocation[] {
  const toolPath = tool.toolPath?.value;
  const schemaFile = toolPath ? catalog.scriptByToolPath(toolPath)?.script.inputSchemaFile : undefined;
  if (schemaFile === undefined) return [];
  const text = (options.readFile ?? readText)(schemaFile);
  if (text === undefined) return [];
  const schema = parseJsonDocument(text);
  const pointer = pointerFromPath(['properties', name]);
  const range = schema.nodeAtPointer(pointer) ? schema.rangeOfPointer(pointer, 'key') : undefined;
  return [range ? { file: schemaFile, range } : { file: schemaFile }];
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
