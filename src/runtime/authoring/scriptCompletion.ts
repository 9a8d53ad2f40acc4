// toolPath completion: each script of the catalog once, by its canonical toolPath (aliases only in its documentation), with its skill's version and health; unavailable skills last. Pure.
import { completionItem, sortKey, trailingComma, type CompletionRequest, type PlanCompletionItem } from './completionSupport.js';
import { isSkillUnavailable, scriptMarkdown, skillDetail } from './scriptSummary.js';

/** The tiers scripts sort in: usable skills, then unsteady ones, then disabled or permanently failed ones. */
function tierOf(health: string, unavailable: boolean): number {
  if (unavailable) return 2;
  return health === 'healthy' ? 0 : 1;
}

/**
 * One item per script of the catalog for a toolPath value, under its canonical toolPath: a script's aliases are
 * not offered as items of their own (they run the same script, and a plan this project writes uses the canonical
 * path); the item's documentation names them. The item replaces the whole string literal (quotes included), or is
 * inserted with quotes when no string was started yet.
 */
export function toolPathItems(request: CompletionRequest, currentValue: string | undefined): PlanCompletionItem[] {
  const { catalog, cursor } = request;
  // A finished literal keeps what follows it; a new or unterminated one may need a comma before the next property.
  const after = cursor.token?.terminated ? '' : trailingComma(cursor);
  const items: PlanCompletionItem[] = [];
  let position = 0;
  for (const skill of catalog.skills) {
    const unavailable = isSkillUnavailable(skill);
    for (const script of skill.scripts) {
      position++;
      const why = unavailable ? 'not available' : script.missingInterpreter !== undefined ? 'cannot run here' : undefined;
      const detail = why ? `${skillDetail(skill)} — ${why}` : skillDetail(skill);
      items.push(
        completionItem(cursor, {
          label: script.toolPath,
          kind: 'script',
          detail,
          documentation: scriptMarkdown(skill, script),
          insertText: `${JSON.stringify(script.toolPath)}${after}`,
          filterWord: script.toolPath,
          sortText: sortKey(tierOf(skill.health, unavailable), position),
          preselect: currentValue === script.toolPath,
        }),
      );
    }
  }
  return items;
}
