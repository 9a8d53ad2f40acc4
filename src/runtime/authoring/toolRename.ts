// Rename a toolId: the edits that change the tool's own toolId and every dependency naming it, or why the name is refused. Pure.
import type { PlanDocument } from './planDocument.js';
import { stringContentSpan, type TextEdit } from './textSpan.js';

/** toolIds allowed by contracts/plan-json.schema.json (`#/$defs/ToolInvocation/properties/toolId`). */
export const TOOL_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,200}$/;

/** The outcome of {@link renameToolId}. */
export type RenameResult = { readonly ok: true; readonly edits: readonly TextEdit[] } | { readonly ok: false; readonly reason: string };

/** The edits renaming `toolId` to `newId` everywhere it is named; refuses a taken or malformed name. */
export function renameToolId(document: PlanDocument, toolId: string, newId: string): RenameResult {
  if (document.toolById(toolId) === undefined) return { ok: false, reason: `no tool has the toolId "${toolId}"` };
  if (newId === toolId) return { ok: true, edits: [] };
  if (!TOOL_ID_PATTERN.test(newId)) {
    return { ok: false, reason: `"${newId}" is not a valid toolId: use 1 to 200 letters, digits, '_', '.', ':' or '-'` };
  }
  if (document.toolById(newId) !== undefined)
    return { ok: false, reason: `the toolId "${newId}" is already taken by tools/${document.toolById(newId)!.index}` };
  // The pattern allows no character that JSON escapes, so the new id goes between the quotes as it is.
  const edits = document.referencesOf(toolId).map((reference): TextEdit => ({ ...stringContentSpan(reference.span), newText: newId }));
  return { ok: true, edits };
}
