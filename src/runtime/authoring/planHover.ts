// Plan JSON hover: what a toolPath, toolId, dependency, input key or retry policy under the cursor means, as markdown with the span it covers. Pure.
import { findNodeAtLocation } from 'jsonc-parser';
import { DEFAULT_PLAN_TIMEOUT_MS } from '../contractTypes/plan.js';
import type { SkillCatalog } from '../skills/skillCatalog.js';
import { otherNameMessage } from '../skills/scriptAliases.js';
import { closestMatch } from '../validation/closestMatch.js';
import type { DependencyEntry, InputProperty, PlanDocument, PlanTool } from './planDocument.js';
import { describeRetryTiming, MAX_RETRIES_LIMIT, BACKOFF_MS_LIMIT, retryTiming, type RetryTiming } from './retryTiming.js';
import { code, inputPropertyDocumentation, inputSchemaProperties, scriptMarkdown, skillDetail } from './scriptSummary.js';
import { spanEnd, spanTouches, type TextSpan } from './textSpan.js';
import { formatDuration } from '../common/humanText.js';

/** A hover: markdown and the span of the text it is about. */
export interface PlanHover {
  readonly markdown: string;
  readonly span: TextSpan;
}

/** The hover at `offset`, or undefined where there is nothing to say. */
export function hoverPlan(document: PlanDocument, offset: number, catalog: SkillCatalog): PlanHover | undefined {
  const element = document.elementAt(offset);
  switch (element.kind) {
    case 'toolPath': {
      const field = element.rollback ? element.tool.rollbackToolPath! : element.tool.toolPath!;
      return { markdown: toolPathMarkdown(field.value, catalog), span: field.span };
    }
    case 'toolId':
      return { markdown: toolIdMarkdown(document, element.tool, catalog), span: element.tool.toolId!.span };
    case 'dependency':
      return { markdown: dependencyMarkdown(document, element.tool, element.entry), span: element.entry.span };
    case 'inputKey':
      return inputKeyHover(element.tool, element.property, catalog);
    case 'retryPolicy':
      return { markdown: retryMarkdown(document, element.tool, catalog), span: retrySpan(element.tool, offset) };
    case 'tool': {
      const timeout = element.tool.timeoutMs;
      if (timeout && (spanTouches(timeout.keySpan, offset) || spanTouches(timeout.span, offset))) {
        return {
          markdown: retryMarkdown(document, element.tool, catalog),
          span: { offset: timeout.keySpan.offset, length: spanEnd(timeout.span) - timeout.keySpan.offset },
        };
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

function toolPathMarkdown(toolPath: string, catalog: SkillCatalog): string {
  const found = catalog.scriptByToolPath(toolPath);
  if (found?.named) return `${otherNameMessage(found.named, toolPath, found.script.toolPath)}.\n\n${scriptMarkdown(found.skill, found.script)}`;
  if (found) return scriptMarkdown(found.skill, found.script);
  const parts = [`${code(toolPath)} is not a script of any discovered skill.`];
  const suggestion = closestMatch(
    toolPath,
    catalog.skills.flatMap((skill) => skill.scripts.map((script) => script.toolPath)),
  );
  if (suggestion) parts.push(`Did you mean ${code(suggestion)}?`);
  else if (catalog.skills.length === 0) parts.push('No skills were discovered: skills live in `skills/<name>/skill.json` under the story root.');
  return parts.join('\n\n');
}

/** "tools/0 · line 5". */
function whereIs(document: PlanDocument, tool: PlanTool): string {
  return `tools/${tool.index} · line ${document.lineOfTool(tool)}`;
}

function toolIdMarkdown(document: PlanDocument, tool: PlanTool, catalog: SkillCatalog): string {
  const toolId = tool.toolId!.value;
  const parts = [`**Tool ${code(toolId)}** · ${whereIs(document, tool)}`];
  if (tool.toolPath) {
    const found = catalog.scriptByToolPath(tool.toolPath.value);
    parts.push(`Runs ${code(tool.toolPath.value)}${found ? ` (${skillDetail(found.skill)})` : ''}.`);
  }
  if (tool.description) parts.push(tool.description.value);
  const dependents = document.dependentsOf(toolId).filter(({ tool: dependent }) => dependent !== tool);
  const names = [...new Set(dependents.map(({ tool: dependent }) => dependent.toolId?.value ?? `tools/${dependent.index}`))];
  if (names.length === 0) parts.push('No tool depends on it.');
  else parts.push(`${names.length === 1 ? '1 tool depends' : `${names.length} tools depend`} on it: ${names.map(code).join(', ')}.`);
  const twins = document.tools.filter((other) => other.toolId?.value === toolId);
  if (twins.length > 1) {
    parts.push(`⚠ ${twins.length} tools use this toolId (${twins.map((twin) => `tools/${twin.index}`).join(', ')}); dependencies resolve to the first.`);
  }
  return parts.join('\n\n');
}

function dependencyMarkdown(document: PlanDocument, tool: PlanTool, entry: DependencyEntry): string {
  if (entry.value === undefined) return 'A dependency must be a toolId (a string).';
  if (entry.value === tool.toolId?.value) return `${code(entry.value)} is this tool itself: a tool cannot depend on itself.`;
  const target = document.toolById(entry.value);
  if (!target) {
    const parts = [`No tool has the toolId ${code(entry.value)}.`];
    const suggestion = closestMatch(entry.value, document.toolIds());
    if (suggestion) parts.push(`Did you mean ${code(suggestion)}?`);
    return parts.join('\n\n');
  }
  const parts = [`**Depends on ${code(entry.value)}** · ${whereIs(document, target)}`];
  if (target.toolPath) parts.push(`Runs ${code(target.toolPath.value)}.`);
  if (target.description) parts.push(target.description.value);
  parts.push(`This tool starts only after ${code(entry.value)} has finished, and receives its output in \`dependencies\`.`);
  return parts.join('\n\n');
}

function inputKeyHover(tool: PlanTool, property: InputProperty, catalog: SkillCatalog): PlanHover | undefined {
  const found = tool.toolPath ? catalog.scriptByToolPath(tool.toolPath.value) : undefined;
  if (!found) return undefined;
  const properties = inputSchemaProperties(found.script.inputSchema);
  const known = properties.find((candidate) => candidate.name === property.name);
  let markdown: string;
  if (known) markdown = `**${code(known.name)}**: ${known.type}\n\n${inputPropertyDocumentation(known)}`;
  else if (found.script.inputSchema === undefined) return undefined;
  else {
    const suggestion = closestMatch(
      property.name,
      properties.map((candidate) => candidate.name),
    );
    markdown = `${code(property.name)} is not in the input schema of ${code(found.script.toolPath)}.${suggestion ? ` Did you mean ${code(suggestion)}?` : ''}`;
  }
  return { markdown, span: property.keySpan };
}

/** The retryPolicy property under the cursor (maxRetries or backoffMs with its value), else the whole retryPolicy. */
function retrySpan(tool: PlanTool, offset: number): TextSpan {
  const policy = tool.retryPolicy!;
  for (const field of [policy.maxRetries, policy.backoffMs]) {
    if (field && (spanTouches(field.keySpan, offset) || spanTouches(field.span, offset))) {
      return { offset: field.keySpan.offset, length: spanEnd(field.span) - field.keySpan.offset };
    }
  }
  return { offset: policy.keySpan.offset, length: spanEnd(policy.span) - policy.keySpan.offset };
}

/** The tool's timing for people: the delays, the timeout per attempt, the worst case, and what the executor does. */
function retryMarkdown(document: PlanDocument, tool: PlanTool, catalog: SkillCatalog): string {
  const script = tool.toolPath ? catalog.scriptByToolPath(tool.toolPath.value)?.script : undefined;
  const timing = retryTiming({
    maxRetries: tool.retryPolicy?.maxRetries?.value,
    backoffMs: tool.retryPolicy?.backoffMs?.value,
    toolTimeoutMs: tool.timeoutMs?.value,
    scriptTimeoutMs: script?.timeoutMs,
  });
  const sentence = describeRetryTiming(timing);
  const parts = [`**Retries of ${code(tool.toolId?.value ?? `tools/${tool.index}`)}**: ${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`];
  if (timing.maxRetries > 0) {
    parts.push(
      `Up to ${timing.maxRetries} ${timing.maxRetries === 1 ? 'retry' : 'retries'} after the first attempt (${timing.attempts} attempts at most). ` +
        `The delay before retry n is backoffMs × 2^(n−1) with backoffMs = ${timing.backoffMs} ms, without cap or jitter.`,
    );
    parts.push(
      `Worst case: ${timing.attempts} × ${formatDuration(timing.timeoutMs)} timeout + ${formatDuration(timing.totalDelayMs)} of delays = **${formatDuration(timing.worstCaseMs)}**.`,
    );
  }
  parts.push(`Timeout per attempt: ${formatDuration(timing.timeoutMs)} ${timeoutOrigin(timing, script?.toolPath)}; a run option can override it.`);
  for (const name of timing.invalid) {
    const limit = name === 'maxRetries' ? `0–${MAX_RETRIES_LIMIT}` : `0–${BACKOFF_MS_LIMIT}`;
    parts.push(`⚠ ${code(name)} must be an integer in ${limit}: the plan does not validate; the default is shown.`);
  }
  const planTimeoutMs = planTimeout(document);
  if (timing.worstCaseMs > planTimeoutMs) {
    parts.push(`⚠ The worst case is longer than the plan's timeout (${formatDuration(planTimeoutMs)}): the run would stop first.`);
  }
  parts.push(
    '_Only retryable failures are retried: a timeout, a non-zero exit, a protocol error or `done.ok: false`. ' +
      'A script that cannot start, or a cancelled run, is not retried. A timed-out script that ignores SIGTERM may take up to the kill grace (1 s) longer._',
  );
  return parts.join('\n\n');
}

function timeoutOrigin(timing: RetryTiming, toolPath: string | undefined): string {
  switch (timing.timeoutSource) {
    case 'tool':
      return "(the tool's timeoutMs)";
    case 'script':
      return `(from the skill manifest of ${code(toolPath ?? '')})`;
    case 'default':
      return '(the default)';
  }
}

function planTimeout(document: PlanDocument): number {
  const node = document.tree ? findNodeAtLocation(document.tree, ['timeoutMs']) : undefined;
  return node?.type === 'number' && typeof node.value === 'number' ? node.value : DEFAULT_PLAN_TIMEOUT_MS;
}
