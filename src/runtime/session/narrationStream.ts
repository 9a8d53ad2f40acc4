// A narration as it is written: the `narration_chunk` ui_events a storyteller streams while the local model retells the turn, for live views (the play panel, `play` in a terminal).
import type { Disposable } from '../common/disposable.js';
import type { PlanRun } from '../executor/planExecutor.js';

/** The ui_event a narrating skill sends for each piece of text as the model writes it (payload `{ text }`). The turn keeps only the whole narration. */
export const NARRATION_CHUNK = 'narration_chunk';

/** Calls `onText` with each streamed piece of a run's narration, with the tool that wrote it. */
export function onNarrationChunk(run: PlanRun, onText: (text: string, toolId: string) => void): Disposable {
  return run.onDidEmitEvent(({ event, toolId }) => {
    if (event.type !== 'ui_event' || event.event !== NARRATION_CHUNK) return;
    const text = event.payload?.['text'];
    if (typeof text === 'string' && text !== '') onText(text, toolId);
  });
}
