// The tool execution panel: the current turn's tools per plan attempt, live, each with a Graph toggle; earlier attempts fold into one-line headers.
import type { PlanGraphLayout } from '../../runtime/graph/graphTypes.js';
import type { AttemptView, NarratorKindView, ToolRunView, TurnView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { AttemptGraphSlot } from './attemptGraph.js';
import { codicon, el } from '../common/dom.js';
import { PanelSection } from './panelSection.js';
import { renderToolRow, statusIcon, type ToolRowModel } from './toolRow.js';
import { fallbackText, narratorName } from './turnAttempts.js';
import type { UiStateStore } from './uiStateStore.js';
import { plural } from '../../runtime/common/humanText.js';

interface AttemptGroup {
  readonly attempt: number;
  planId: string | null;
  narrator: NarratorKindView;
  readonly tools: ToolRowModel[];
  finished: AttemptView | undefined;
  expanded: boolean;
  /** The Graph toggle and the inline graph of the attempt's plan. */
  readonly graph: AttemptGraphSlot;
  readonly element: HTMLElement;
}

/** Tools of one turn (the running one, or the last one after it ended). */
export class ToolPanel {
  private readonly section: PanelSection;
  private readonly list: HTMLElement;
  private readonly note: HTMLElement;
  private groups: AttemptGroup[] = [];
  private turnIndex: number | undefined;
  private running = false;
  /** Rows whose log the author opened, as "attempt:toolId". */
  private readonly expandedLogs = new Set<string>();

  constructor(private readonly store: UiStateStore) {
    this.section = new PanelSection({ id: 'tools', title: 'Tools', testId: PlayPanelTestId.toolPanel, store });
    this.list = el('div', { className: 'attempt-groups', attrs: { role: 'list' } });
    this.note = el('p', { className: 'section-note' });
    this.section.body.append(this.list, this.note);
    this.showEmpty();
  }

  get element(): HTMLElement {
    return this.section.element;
  }

  /** A new turn: forget the previous turn's tools. */
  startTurn(turnIndex: number): void {
    this.reset(turnIndex);
    this.running = true;
    this.note.hidden = false;
    this.note.textContent = 'The narrator is writing a plan…';
    this.updateDescription();
  }

  /** A new plan attempt: earlier attempts fold into their header; its graph is open if the author had it open before, or had the previous attempt's open. */
  startAttempt(attempt: number, planId: string, narrator: NarratorKindView, tools: readonly ToolRunView[], graph?: PlanGraphLayout): void {
    const previous = this.groups.filter((candidate) => candidate.attempt < attempt).at(-1);
    for (const group of this.groups) {
      group.expanded = false;
      this.renderGroup(group);
    }
    const group = this.groupFor(attempt);
    group.planId = planId;
    group.narrator = narrator;
    group.expanded = true;
    group.tools.splice(0, group.tools.length, ...tools);
    group.graph.setLayout(graph);
    group.graph.open = this.store.isGraphOpen(this.graphKey(group)) || previous?.graph.open === true;
    if (group.graph.open) this.store.setGraphOpen(this.graphKey(group), true);
    this.note.hidden = true;
    this.renderGroup(group);
    this.updateDescription();
  }

  /** A tool of an attempt changed (status, retries, log lines). */
  updateTool(tool: ToolRunView): void {
    const group = this.groupFor(tool.attempt);
    const position = group.tools.findIndex((candidate) => candidate.toolId === tool.toolId);
    if (position >= 0) group.tools[position] = tool;
    else group.tools.push(tool);
    group.graph.update(tool);
    this.note.hidden = true;
    if (!this.replaceRow(group, tool)) this.renderGroup(group);
  }

  finishAttempt(attempt: AttemptView): void {
    const group = this.groupFor(attempt.attempt);
    group.finished = attempt;
    if (group.planId === null) group.planId = attempt.planId;
    group.narrator = attempt.narrator;
    // The live attempt log has no layout: keep the one that came with attemptStarted.
    if (!group.graph.hasLayout) group.graph.setLayout(attempt.graph);
    this.renderGroup(group);
    this.updateDescription();
  }

  /** The turn ended: keep its tools on screen; when none were seen live, show what the turn recorded. */
  finishTurn(turn: TurnView): void {
    this.running = false;
    if (this.turnIndex !== turn.index || this.groups.length === 0) this.showRecordedTurn(turn);
    else {
      for (const attempt of turn.attempts) if (this.groups.some((group) => group.attempt === attempt.attempt)) this.finishAttempt(attempt);
      this.note.hidden = true;
    }
    this.updateDescription();
  }

  /** The turn could not run (turnFailed). */
  failTurn(message: string): void {
    this.running = false;
    this.note.hidden = false;
    this.note.textContent = `The turn stopped: ${message}`;
    this.updateDescription();
  }

  /** After a snapshot: the last turn's attempts as recorded (statuses and logs of earlier turns are not kept). */
  showRecordedTurn(turn: TurnView | undefined): void {
    this.reset(turn?.index);
    this.running = false;
    if (turn === undefined) {
      this.showEmpty();
      return;
    }
    turn.attempts.forEach((attempt, position) => {
      const group = this.groupFor(attempt.attempt);
      group.planId = attempt.planId;
      group.narrator = attempt.narrator;
      group.finished = attempt;
      group.expanded = position === turn.attempts.length - 1;
      group.graph.setLayout(attempt.graph);
      group.graph.open = this.store.isGraphOpen(this.graphKey(group));
      for (const toolId of attempt.tools) {
        const failed = attempt.failedTools.includes(toolId);
        const error = turn.errors.find((candidate) => candidate.toolId === toolId && candidate.attempt === attempt.attempt);
        group.tools.push({
          attempt: attempt.attempt,
          toolId,
          skill: error?.skill ?? null,
          status: failed ? 'failed' : attempt.outcome === 'success' ? 'success' : 'recorded',
          retries: 0,
          logLines: [],
          error: error !== undefined ? { category: error.category, message: error.message } : undefined,
        });
      }
      this.renderGroup(group);
    });
    this.note.hidden = false;
    this.note.textContent =
      turn.attempts.length === 0
        ? 'This turn ran no plan.'
        : 'As recorded in the session. Live statuses and logs appear for turns played while the panel is open.';
    this.updateDescription();
  }

  private showEmpty(): void {
    this.note.hidden = false;
    this.note.textContent = 'No turn has run yet. Tools of the next turn appear here as they run, with their logs.';
    this.updateDescription();
  }

  private reset(turnIndex: number | undefined): void {
    this.groups = [];
    this.list.replaceChildren();
    this.expandedLogs.clear();
    this.turnIndex = turnIndex;
  }

  private groupFor(attempt: number): AttemptGroup {
    let group = this.groups.find((candidate) => candidate.attempt === attempt);
    if (group === undefined) {
      group = {
        attempt,
        planId: null,
        narrator: 'pattern',
        tools: [],
        finished: undefined,
        expanded: true,
        graph: new AttemptGraphSlot(attempt),
        element: el('div', { className: 'attempt-group', data: { attempt }, attrs: { role: 'listitem' } }),
      };
      this.groups.push(group);
      this.groups.sort((a, b) => a.attempt - b.attempt);
      const next = this.groups[this.groups.indexOf(group) + 1];
      this.list.insertBefore(group.element, next?.element ?? null);
    }
    return group;
  }

  private renderGroup(group: AttemptGroup): void {
    const oldLogs = new Map<string, number>();
    for (const log of group.element.querySelectorAll<HTMLElement>('.tool-row')) {
      const list = log.querySelector<HTMLElement>('.tool-log');
      const atBottom = list === null || list.scrollHeight - list.scrollTop - list.clientHeight < 8;
      if (!atBottom && list !== null) oldLogs.set(log.dataset['toolId'] ?? '', list.scrollTop);
    }
    // Rows are redrawn on every update, so remember which control had the focus and give it back.
    const active = document.activeElement instanceof HTMLElement && group.element.contains(document.activeElement) ? document.activeElement : null;
    const focusedToolId = active?.classList.contains('tool-row-head') ? active.closest<HTMLElement>('.tool-row')?.dataset['toolId'] : undefined;
    const headerFocused = active?.classList.contains('attempt-header') ?? false;
    const toggleFocused = active?.classList.contains('graph-toggle') ?? false;
    const chevron = codicon(group.expanded ? 'chevron-down' : 'chevron-right');
    const header = el(
      'button',
      { className: 'attempt-header', attrs: { type: 'button', 'aria-expanded': String(group.expanded) } },
      chevron,
      attemptIcon(group),
      el('span', { className: 'attempt-title' }, attemptTitle(group)),
      el('span', { className: 'attempt-description' }, attemptDescription(group)),
    );
    // Toggled in place (not redrawn) so the header keeps its focus without a programmatic focus() ring.
    const setExpanded = (expanded: boolean): void => {
      group.expanded = expanded;
      rows.hidden = !expanded;
      header.setAttribute('aria-expanded', String(expanded));
      chevron.className = `codicon codicon-${expanded ? 'chevron-down' : 'chevron-right'}`;
      group.element.classList.toggle('is-collapsed', !expanded);
      if (expanded) group.graph.shown();
    };
    header.addEventListener('click', () => setExpanded(!group.expanded));
    const rows = el('div', { className: 'tool-rows' });
    rows.hidden = !group.expanded;
    for (const tool of group.tools) rows.append(this.renderRow(group.attempt, tool));
    if (group.tools.length === 0) rows.append(el('p', { className: 'section-note' }, 'Narrative only: this plan runs no tools.'));
    // The graph sits under the rows, so folding the attempt hides it too; pressing Graph on a folded attempt unfolds it.
    const graphArea = group.graph.renderArea(group.tools);
    const toggle =
      graphArea === null
        ? null
        : group.graph.renderToggle(
            graphArea,
            () => group.tools,
            (open) => {
              this.store.setGraphOpen(this.graphKey(group), open);
              if (open && !group.expanded) setExpanded(true);
              if (open) this.reveal(graphArea);
            },
          );
    if (graphArea !== null) rows.append(graphArea);
    group.element.classList.toggle('is-collapsed', !group.expanded);
    group.element.dataset['outcome'] = group.finished?.outcome ?? 'running';
    group.element.replaceChildren(el('div', { className: 'attempt-head' }, header, toggle), rows);
    for (const log of rows.querySelectorAll<HTMLElement>('.tool-log')) {
      const saved = oldLogs.get(log.closest<HTMLElement>('.tool-row')?.dataset['toolId'] ?? '');
      log.scrollTop = saved ?? log.scrollHeight;
    }
    if (group.expanded) group.graph.shown();
    if (headerFocused) header.focus();
    else if (toggleFocused && toggle !== null) toggle.focus();
    else if (focusedToolId !== undefined) {
      for (const row of rows.querySelectorAll<HTMLElement>('.tool-row')) {
        if (row.dataset['toolId'] === focusedToolId) row.querySelector<HTMLElement>('.tool-row-head')?.focus();
      }
    }
  }

  /**
   * Scrolls the section just enough to show `element`'s bottom, never past its top (a graph opened at the bottom of a
   * short section would otherwise appear off screen). Only the section body scrolls: scrollIntoView could also move
   * the page's overflow-hidden columns.
   */
  private reveal(element: HTMLElement): void {
    const body = this.section.body;
    const top = element.getBoundingClientRect().top - body.getBoundingClientRect().top + body.scrollTop;
    const bottom = top + element.offsetHeight;
    if (bottom > body.scrollTop + body.clientHeight) body.scrollTop = Math.min(top, bottom - body.clientHeight);
  }

  /** The key of an attempt's graph toggle in the saved UI state. */
  private graphKey(group: AttemptGroup): string {
    return `${this.turnIndex ?? 0}/${group.attempt}/${group.planId ?? ''}`;
  }

  private renderRow(attempt: number, tool: ToolRowModel): HTMLElement {
    const key = `${attempt}:${tool.toolId}`;
    return renderToolRow(tool, this.expandedLogs.has(key), (expanded) => (expanded ? this.expandedLogs.add(key) : this.expandedLogs.delete(key)));
  }

  /** Redraws one row (log lines stream in often), keeping its log's scroll position and its focus. False if not drawn yet. */
  private replaceRow(group: AttemptGroup, tool: ToolRowModel): boolean {
    const old = [...group.element.querySelectorAll<HTMLElement>('.tool-row')].find((row) => row.dataset['toolId'] === tool.toolId);
    if (old === undefined) return false;
    const oldLog = old.querySelector<HTMLElement>('.tool-log');
    const scrolledUp = oldLog !== null && oldLog.scrollHeight - oldLog.scrollTop - oldLog.clientHeight >= 8 ? oldLog.scrollTop : undefined;
    const hadFocus = old.contains(document.activeElement);
    const row = this.renderRow(group.attempt, tool);
    old.replaceWith(row);
    const log = row.querySelector<HTMLElement>('.tool-log');
    if (log !== null) log.scrollTop = scrolledUp ?? log.scrollHeight;
    if (hadFocus) row.querySelector<HTMLElement>('.tool-row-head')?.focus();
    return true;
  }

  private updateDescription(): void {
    if (this.turnIndex === undefined) {
      this.section.setDescription('');
      return;
    }
    const attempts = this.groups.length;
    const state = this.running ? 'running' : '';
    this.section.setDescription([`Turn ${this.turnIndex}`, attempts > 1 ? plural(attempts, 'attempt') : '', state].filter((part) => part !== '').join(' · '));
  }
}

function attemptTitle(group: AttemptGroup): string {
  const finished = group.finished;
  if (finished === undefined) return `Attempt ${group.attempt} — running`;
  // Named by skill where the rows know it ("failed: broken-dice"), by tool id otherwise.
  const names = [...new Set(finished.failedTools.map((toolId) => group.tools.find((tool) => tool.toolId === toolId)?.skill ?? toolId))];
  const failed = names.length > 0 ? `: ${names.join(', ')}` : '';
  return `Attempt ${group.attempt} — ${finished.outcome}${failed}`;
}

function attemptDescription(group: AttemptGroup): string {
  const parts = [narratorName(group.narrator)];
  if (group.planId !== null) parts.push(group.planId);
  if (group.finished?.fallbackReason !== undefined) parts.push(fallbackText(group.finished.fallbackReason));
  return parts.join(' · ');
}

function attemptIcon(group: AttemptGroup): HTMLElement {
  const outcome = group.finished?.outcome;
  if (outcome === undefined) return statusIcon('running');
  if (outcome === 'success') return statusIcon('success');
  if (outcome === 'cancelled') return statusIcon('cancelled');
  return statusIcon('failed');
}
