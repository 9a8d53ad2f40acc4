// Checks tools' `condition` expressions: a condition that does not parse is an error placed on the character where parsing failed.
import { parseCondition, type ConditionParseResult } from '../state/conditionExpression.js';
import { DiagnosticCode, type DiagnosticDraft } from './diagnostic.js';
import { pointerFromPath } from './jsonLocator.js';
import { toolName, type ToolView } from './planChecks.js';
import { addString, findString, stringNumbering } from './stringNumbering.js';

/** Most parse results remembered across validations (the editor validates on every keystroke). */
const MAX_REMEMBERED_CONDITIONS = 256;

/**
 * Parse results by condition text, across validations. Parsing is a pure function of the text, so a
 * remembered result is never stale; the map is emptied when full, which bounds its memory.
 */
const parsedConditions = new Map<string, ConditionParseResult>();

/**
 * Reports conditions that do not parse, with the offending position in the message. The draft's
 * `stringSpan` is the failing character of the expression (an empty span when the expression ends
 * too early), which the collector maps into the string literal of the text.
 */
export function checkConditions(tools: readonly ToolView[], drafts: DiagnosticDraft[]): void {
  // Generated plans repeat the same few conditions across thousands of tools: each is looked up once.
  const texts = stringNumbering();
  const results: ConditionParseResult[] = [];
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index]!;
    const condition = tool.condition;
    if (condition === undefined) continue;
    let number = findString(texts, condition);
    if (number < 0) {
      number = addString(texts, condition);
      results.push(parsed(condition));
    }
    const result = results[number]!;
    if (result.ok) continue;
    const start = Math.max(0, Math.min(result.offset, condition.length));
    drafts.push({
      severity: 'error',
      code: DiagnosticCode.CONDITION_SYNTAX,
      message: `${toolName(tool)}: invalid condition at character ${result.offset + 1}: ${result.message} (example: state.dice.lastRoll.success == true)`,
      pointer: pointerFromPath(['tools', tool.index, 'condition']),
      stringSpan: { start, length: start < condition.length ? 1 : 0 },
    });
  }
}

function parsed(condition: string): ConditionParseResult {
  let result = parsedConditions.get(condition);
  if (result === undefined) {
    if (parsedConditions.size >= MAX_REMEMBERED_CONDITIONS) parsedConditions.clear();
    result = parseCondition(condition);
    parsedConditions.set(condition, result);
  }
  return result;
}
