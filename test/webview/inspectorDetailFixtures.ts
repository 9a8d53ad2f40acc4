// A run for the Inspector's detail tests: a nested state_patch, a dice ui_event, an image asset (data: URI) and one the extension refused, a long log line, a line over the limit, done, and stderr between them.
import type { InspectorRowView, StderrChunk, ToInspectorWebview, VerdictCard } from '../../src/protocol/inspectorMessages.js';

const subject = { title: 'tavern/brawl.js', source: 'live' as const, input: '{"target":"the bouncer"}', canRun: true };

function event(
  index: number,
  elapsedMs: number,
  type: InspectorRowView['type'],
  summary: string,
  value: Record<string, unknown>,
  extra: Partial<InspectorRowView> = {},
): InspectorRowView {
  const full = { version: '0', type, ...value };
  return {
    index,
    lineNumber: index + 1,
    elapsedMs,
    status: 'event',
    type,
    mark: 'ok',
    summary,
    text: JSON.stringify(full),
    event: full as NonNullable<InspectorRowView['event']>,
    ...extra,
  };
}

/** A 96×64 picture: a lantern-yellow disc on a night-blue field. */
export const IMAGE_URI = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="64"><rect width="96" height="64" fill="#1d3557"/><circle cx="48" cy="32" r="20" fill="#f4d35e"/></svg>',
).toString('base64')}`;

export const LONG_MESSAGE = `The bouncer ${'leans on the doorframe and considers the offer, '.repeat(14)}then shrugs.`;

const patch = { weather: { sky: 'fog', wind: { speed: 12, gusts: [14, 18] }, visible: false }, score: 3 };

export function detailRows(): InspectorRowView[] {
  return [
    event(0, 2, 'log', 'info: sizing up the bouncer', { level: 'info', message: 'sizing up the bouncer' }),
    event(
      1,
      8,
      'state_patch',
      'patch weather, score',
      { patch },
      {
        state: { after: { player: { name: 'Mara', hp: 9 }, weather: patch.weather, score: 3, turn: null }, changed: ['weather', 'score'] },
      },
    ),
    event(2, 15, 'ui_event', 'dice_roll {"formula":"1d20+3","total":17}', {
      event: 'dice_roll',
      payload: { formula: '1d20+3', total: 17, dice: [{ sides: 20, value: 14 }], modifier: 3, reason: 'shove the bouncer', dc: 15, success: true },
    }),
    event(
      3,
      21,
      'asset',
      'image image/svg+xml data/bouncer.svg',
      { assetId: 'bouncer', kind: 'image', mediaType: 'image/svg+xml', path: 'data/bouncer.svg' },
      { assetUri: IMAGE_URI },
    ),
    event(
      4,
      22,
      'asset',
      'audio audio/ogg /home/author/brawl.ogg',
      { assetId: 'brawl', kind: 'audio', mediaType: 'audio/ogg', path: '/home/author/brawl.ogg' },
      {
        assetUnavailable: 'the file is outside the story and the skill folder, so the panel does not load it',
      },
    ),
    event(5, 30, 'log', `info: ${LONG_MESSAGE.slice(0, 140)}…`, { level: 'info', message: LONG_MESSAGE }),
    {
      index: 6,
      lineNumber: 7,
      elapsedMs: 34,
      status: 'too_long',
      type: 'invalid',
      mark: 'warning',
      byteLength: 5000,
      summary: 'stdout line 7 is 5000 bytes, over the 1000-byte limit',
      problem: 'stdout line 7 is 5000 bytes, over the 1000-byte limit',
    },
    event(7, 40, 'done', 'ok: the bouncer steps aside', { ok: true, summary: 'the bouncer steps aside' }),
  ];
}

export const detailStderr: StderrChunk[] = [
  { elapsedMs: 9, text: 'debug: rolling with advantage\n' },
  { elapsedMs: 30, text: 'warning: the tavern is crowded\nwarning: the exit is ' },
  { elapsedMs: 31, text: 'blocked\n' },
];

const verdict: VerdictCard = {
  ok: false,
  message: 'stdout line 7 is 5000 bytes, over the 1000-byte limit',
  exitCode: 0,
  signal: null,
  timedOut: false,
  done: { ok: true, summary: 'the bouncer steps aside' },
  durationMs: 42,
  category: 'protocol_violation',
  code: 'LINE_TOO_LONG',
  retryable: false,
  lineCount: 8,
  droppedRows: 0,
};

export function detailRun(): ToInspectorWebview[] {
  return [
    { type: 'reset', subject, running: true },
    { type: 'stderr', chunks: detailStderr.slice(0, 1) },
    { type: 'rows', rows: detailRows().slice(0, 5), droppedRows: 0 },
    { type: 'stderr', chunks: detailStderr.slice(1) },
    { type: 'rows', rows: detailRows().slice(5), droppedRows: 0 },
    { type: 'verdict', verdict },
  ];
}
