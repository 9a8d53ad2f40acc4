// Checks tools' `condition` expressions: a condition that does not parse is an error placed on the character where parsing failed.
import { parseCondition, type ConditionParseResult } from '../state/conditionExpression.js';
import { DiagnosticCode, type DiagnosticDraft } from './diagnostic.js';
import { pointerFromPath } from './jsonLocator.js';
import { toolName, type ToolView } from './planChecks.js';

/**
 * Reports conditions that do not parse, with the offending position in the message. The draft's
 * `stringSpan` is the failing character of the expression (an empty span when the expression ends
 * too early), which the collector maps into the string literal of the text.
 */
export function checkConditions(tools: readonly ToolView[], drafts: DiagnosticDraft[]): void {
  // Generated plans repeat the same few conditions across thousands of tools: each is parsed once.
  const parsedByText = new Map<string, ConditionParseResult>();
  for (const tool of tools) {
    if (tool.condition === undefined) continue;
    let parsed = parsedByText.get(tool.condition);
    if (parsed === undefined) {
      parsed = parseCondition(tool.condition);
      parsedByText.set(tool.condition, parsed);
    }
    if (parsed.ok) continue;
    const start = Math.max(0, Math.min(parsed.offset, tool.condition.length));
    drafts.push({
      severity: 'error',
      code: DiagnosticCode.CONDITION_SYNTAX,
      message: `${toolName(tool)}: invalid condition at character ${parsed.offset + 1}: ${parsed.message} (example: state.dice.lastRoll.success == true)`,
      pointer: pointerFromPath(['tools', tool.index, 'condition']),
      stringSpan: { start, length: start < tool.condition.length ? 1 : 0 },
    });
  }
}
