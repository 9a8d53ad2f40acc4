// The compact per-turn line (narrator, attempts, disabled skills, fallback badge) that expands to list every plan attempt.
import type { AttemptView, NarratorKindView, TurnView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { codicon, el } from '../common/dom.js';
import { button } from './playElements.js';
import { formatDuration, plural } from '../../runtime/common/humanText.js';
import { fallbackSummary } from '../../runtime/narrator/fallbackReasons.js';

/** A fallback as the panel says it: in the author's words for the reasons of time, the reason itself otherwise. */
export function fallbackText(reason: string): string {
  return fallbackSummary(reason) ?? `LLM fell back: ${reason}`;
}

/** "LLM narrator" / "Pattern narrator". */
export function narratorName(kind: NarratorKindView): string {
  return kind === 'llm' ? 'LLM narrator' : 'Pattern narrator';
}

/** The summary line of a turn with a toggle for the attempt list (which ends with a link to the turn's details). */
export function renderTurnAttempts(turn: TurnView, onShowDetails: () => void): HTMLElement {
  const fallbackReason = turn.attempts.find((attempt) => attempt.fallbackReason !== undefined)?.fallbackReason;
  const parts: (HTMLElement | string)[] = [
    el('span', { className: 'attempts-turn' }, `Turn ${turn.index}`),
    el(
      'span',
      { className: 'attempts-narrator', title: fallbackReason !== undefined ? `The LLM narrator fell back: ${fallbackReason}` : undefined },
      codicon(turn.narrator === 'llm' ? 'sparkle' : 'symbol-misc'),
      narratorName(turn.narrator),
      fallbackReason !== undefined ? el('span', { className: 'attempts-fallback-reason' }, ` (${fallbackText(fallbackReason)})`) : null,
    ),
  ];
  const attempts = Math.max(turn.attempts.length, 1);
  parts.push(el('span', { className: attempts > 1 ? 'attempts-count is-replanned' : 'attempts-count' }, plural(attempts, 'attempt')));
  if (turn.disabledSkills.length > 0) {
    const reasons = turn.disabledSkills.map((skill) =>
      turn.disabledReasons?.[skill] ? `${skill} disabled: ${turn.disabledReasons[skill]}` : `${skill} disabled`,
    );
    parts.push(el('span', { className: 'attempts-disabled', title: reasons.join('\n') }, `disabled: ${turn.disabledSkills.join(', ')}`));
  }
  if (turn.durationMs > 0) parts.push(el('span', { className: 'attempts-duration' }, formatDuration(turn.durationMs)));
  const badges: HTMLElement[] = [];
  if (turn.fallback)
    badges.push(
      el('span', { className: 'badge badge-warning', title: 'Every attempt failed, so the turn was told with template narration.' }, 'fallback narration'),
    );
  if (turn.cancelled) badges.push(el('span', { className: 'badge' }, 'cancelled'));

  const list = el(
    'div',
    { className: 'attempt-details' },
    el('ol', { className: 'attempt-list', attrs: { 'aria-label': `Attempts of turn ${turn.index}` } }, ...turn.attempts.map(renderAttempt)),
    ...Object.entries(turn.disabledReasons ?? {}).map(([skill, reason]) => el('div', { className: 'attempt-detail' }, `${skill} disabled: ${reason}`)),
    button({ label: 'Open turn details', icon: 'go-to-file', variant: 'link', onClick: onShowDetails }),
  );
  list.hidden = true;
  const chevron = codicon('chevron-right');
  const toggle = el(
    'button',
    { className: 'attempts-toggle', attrs: { type: 'button', 'aria-expanded': 'false' }, title: 'Show the plan attempts of this turn' },
    chevron,
    ...separated(parts),
  );
  toggle.disabled = turn.attempts.length === 0;
  toggle.addEventListener('click', () => {
    list.hidden = !list.hidden;
    toggle.setAttribute('aria-expanded', String(!list.hidden));
    chevron.className = `codicon codicon-${list.hidden ? 'chevron-right' : 'chevron-down'}`;
  });
  return el(
    'div',
    {
      className: 'turn-attempts',
      testId: PlayPanelTestId.turnAttempts,
      data: { turnIndex: turn.index, attempts: turn.attempts.length, fallback: String(turn.fallback) },
    },
    el('div', { className: 'attempts-line' }, toggle, ...badges),
    list,
  );
}

/** An attempt's fallback line: the panel's words and the reason as the narrator gave it. */
function fallbackDetail(reason: string): string {
  const summary = fallbackSummary(reason);
  return summary === undefined ? `LLM fell back: ${reason}` : `${summary[0]!.toUpperCase()}${summary.slice(1)} (${reason})`;
}

function renderAttempt(attempt: AttemptView): HTMLElement {
  const outcomeIcon: Record<AttemptView['outcome'], string> = { success: 'pass', failed: 'error', invalid: 'warning', cancelled: 'circle-slash' };
  return el(
    'li',
    { className: `attempt is-${attempt.outcome}`, data: { attempt: attempt.attempt, outcome: attempt.outcome } },
    el(
      'span',
      { className: 'attempt-head' },
      el('span', { className: 'attempt-outcome' }, codicon(outcomeIcon[attempt.outcome]), ` Attempt ${attempt.attempt} — ${attempt.outcome}`),
      el('span', { className: 'attempt-meta' }, ` · ${narratorName(attempt.narrator)}${attempt.planId !== null ? ` · plan ${attempt.planId}` : ''}`),
    ),
    attempt.fallbackReason !== undefined ? el('span', { className: 'attempt-detail attempt-fallback' }, fallbackDetail(attempt.fallbackReason)) : null,
    attempt.failedTools.length > 0 ? el('span', { className: 'attempt-detail is-error' }, `Failed: ${attempt.failedTools.join(', ')}`) : null,
    attempt.disabledSkills.length > 0 ? el('span', { className: 'attempt-detail' }, `Skills disabled: ${attempt.disabledSkills.join(', ')}`) : null,
    el('span', { className: 'attempt-detail attempt-tools' }, attempt.tools.length > 0 ? `Tools: ${attempt.tools.join(' → ')}` : 'Narrative only (no tools)'),
    attempt.explanation && attempt.explanation.length > 0
      ? el(
          'ul',
          { className: 'attempt-why', attrs: { 'aria-label': 'Why the narrator chose each tool' } },
          ...attempt.explanation.map((line) => el('li', { className: 'attempt-detail' }, line)),
        )
      : null,
    attempt.nearMisses && attempt.nearMisses.length > 0
      ? el(
          'div',
          { className: 'attempt-near-misses' },
          el('span', { className: 'attempt-detail' }, 'Stayed out:'),
          el(
            'ul',
            { className: 'attempt-why is-near-miss', attrs: { 'aria-label': 'Skills that matched some words but stayed out' } },
            ...attempt.nearMisses.map((line) => el('li', { className: 'attempt-detail' }, line)),
          ),
        )
      : null,
  );
}

function separated(parts: readonly (HTMLElement | string)[]): (HTMLElement | string)[] {
  return parts.flatMap((part, index) => (index === 0 ? [part] : [el('span', { className: 'separator', attrs: { 'aria-hidden': 'true' } }, '·'), part]));
}
