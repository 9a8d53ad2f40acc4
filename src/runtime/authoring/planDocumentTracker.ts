// Keeps the newest plan document of a file and its last well-formed one, so editor features keep working while the JSON is broken. Pure.
import { PlanDocument } from './planDocument.js';

/** The current parse of a text and the last one that was well-formed JSON. */
export interface TrackedPlanDocument {
  /** The newest text's model (from the tolerant parse when it has syntax problems). */
  readonly current: PlanDocument;
  /** The newest well-formed model: `current` when it is well-formed, else an earlier version's; undefined if none was. */
  readonly lastWellFormed: PlanDocument | undefined;
}

/** One tracker per open document (keyed by its URI in the extension). */
export class PlanDocumentTracker {
  private tracked: TrackedPlanDocument | undefined;

  /** Parses a new version of the text (reuses the model when the text did not change). */
  update(text: string): TrackedPlanDocument {
    if (this.tracked?.current.text === text) return this.tracked;
    const current = PlanDocument.parse(text);
    this.tracked = { current, lastWellFormed: current.isWellFormed ? current : this.tracked?.lastWellFormed };
    return this.tracked;
  }

  /** The last tracked state, if any. */
  get state(): TrackedPlanDocument | undefined {
    return this.tracked;
  }
}
