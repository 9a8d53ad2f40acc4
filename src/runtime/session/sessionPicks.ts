// Which play-through the play panel opens, and the entries of its session picker (name, turns, last played, last input; unreadable ones with their problem). Pure data over the session store; no UI.
import { plural } from '../common/humanText.js';
import { adoptOlderSession, olderSessionOffer, type OlderSessionOffer } from './olderSessionFile.js';
import { lastSessionId, listSessions, newSessionId, type SessionSummary } from './sessionStore.js';

/** What the panel opens: a session of the store by id, and a note for the author when some could not be used. */
export interface PanelSessionChoice {
  readonly id: string;
  /** A play-through this is not: it starts fresh (no saved file yet). */
  readonly fresh: boolean;
  readonly notice?: string;
}

/** One entry of the session picker. */
export interface SessionPickEntry {
  /** What choosing it opens: a session of the store, or the older session file (taken into the store first). */
  readonly target: { readonly kind: 'session'; readonly id: string } | { readonly kind: 'olderFile'; readonly file: string };
  readonly label: string;
  readonly description: string;
  readonly detail: string;
  /** False for a damaged session or one of another format version: listed with its problem, never opened. */
  readonly openable: boolean;
  readonly current: boolean;
}

/**
 * The play-through played last, else the older session file of earlier versions (copied into the store, once), else a
 * new one. Sessions that cannot be read are skipped and named in the notice; their files are left as they are.
 */
export async function panelSessionToOpen(root: string, now = new Date()): Promise<PanelSessionChoice> {
  const summaries = await listSessions(root);
  const notice = unreadableNotice(summaries);
  const last = await lastSessionId(root);
  if (last !== undefined) return { id: last, fresh: false, ...(notice ? { notice } : {}) };
  const older = await olderSessionOffer(root);
  if (older !== undefined && !('problem' in older)) {
    const id = await adoptOlderSession(root);
    const taken = `The play-through of .narratoria/session.json (from an earlier version) continues as "${id}"; the older file was copied, not changed.`;
    return { id, fresh: false, notice: notice ? `${taken} ${notice}` : taken };
  }
  const olderNote =
    older !== undefined && 'problem' in older ? `The older session file .narratoria/session.json ${older.problem}; it was left as it is.` : undefined;
  const notes = [notice, olderNote].filter((note): note is string => note !== undefined);
  return { id: await newSessionId(root, now), fresh: true, ...(notes.length > 0 ? { notice: notes.join(' ') } : {}) };
}

/** A sentence naming the saved play-throughs that cannot be opened, or undefined when every one can. */
export function unreadableNotice(summaries: readonly SessionSummary[]): string | undefined {
  const unreadable = summaries.filter((summary) => summary.problem !== undefined && !isDataOnly(summary));
  if (unreadable.length === 0) return undefined;
  const named = unreadable.map((summary) => `"${summary.id}" ${summary.problem}`).join('; ');
  if (unreadable.length === 1) return `A saved play-through could not be opened: ${named}. It was left as it is.`;
  return `${unreadable.length} saved play-throughs could not be opened: ${named}. They were left as they are.`;
}

/** The picker's entries: the store's sessions (last played first), then the older session file when it is still offered. */
export function sessionPickEntries(
  summaries: readonly SessionSummary[],
  older: OlderSessionOffer | undefined,
  currentId: string | undefined,
  now = new Date(),
): SessionPickEntry[] {
  const entries: SessionPickEntry[] = summaries
    .filter((summary) => !isDataOnly(summary))
    .map((summary): SessionPickEntry => {
      const current = summary.id === currentId;
      if (summary.problem !== undefined) {
        return {
          target: { kind: 'session', id: summary.id },
          label: summary.id,
          description: 'cannot be opened',
          detail: `session.json ${summary.problem}`,
          openable: false,
          current,
        };
      }
      const turns = summary.turns ?? 0;
      const played = summary.updatedAt ? `played ${whenPlayed(summary.updatedAt, now)}` : '';
      return {
        target: { kind: 'session', id: summary.id },
        label: summary.id,
        description: [current ? 'current' : '', `${plural(turns, 'turn')}`, played].filter(Boolean).join(' · '),
        detail: summary.lastInput !== undefined ? `Last input: ${summary.lastInput}` : 'No turns yet',
        openable: true,
        current,
      };
    });
  if (older !== undefined) {
    if ('problem' in older) {
      entries.push({
        target: { kind: 'olderFile', file: older.file },
        label: '(older session file)',
        description: 'cannot be opened',
        detail: `.narratoria/session.json ${older.problem}`,
        openable: false,
        current: false,
      });
    } else {
      entries.push({
        target: { kind: 'olderFile', file: older.file },
        label: '(older session file)',
        description: [`${plural(older.turns, 'turn')}`, `played ${whenPlayed(older.updatedAt, now)}`].join(' · '),
        detail: `.narratoria/session.json from an earlier version: continuing copies it into the store as "${older.id}".${older.lastInput !== undefined ? ` Last input: ${older.lastInput}` : ''}`,
        openable: true,
        current: false,
      });
    }
  }
  return entries;
}

/** "just now", "5 min ago", "3 h ago", "yesterday", else the date ("2026-11-28"). */
export function whenPlayed(isoTime: string, now = new Date()): string {
  const time = Date.parse(isoTime);
  if (Number.isNaN(time)) return 'at an unknown time';
  const minutes = Math.floor((now.getTime() - time) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  if (hours < 48) return 'yesterday';
  return isoTime.slice(0, 10);
}

/** A folder with skill data and no session file: scripts run outside a play-through (`run`), not something to continue. */
function isDataOnly(summary: SessionSummary): boolean {
  return summary.problem !== undefined && summary.problem.startsWith('has skill data but no session file');
}
