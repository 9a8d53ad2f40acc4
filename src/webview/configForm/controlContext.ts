// What every control of the Configure Skill form gets from its row and gives back (types plus the shared control attributes).
import { ConfigFormTestId, type ConfigFormField } from '../../protocol/configFormMessages.js';
import type { FormState } from './formState.js';

/** What a control needs from its row. */
export interface ControlContext {
  readonly field: ConfigFormField;
  readonly state: FormState;
  /** Id for the focusable element (the row's title label points at it). */
  readonly id: string;
  /** The form is read-only (config.json cannot be used). */
  readonly disabled: boolean;
  /** Called after every edit. */
  readonly changed: () => void;
  /** Asks the row to draw its control again (after Replace Value). */
  readonly redraw: (focus: boolean) => void;
  /** The description element for checkboxes, which show it beside the box. */
  readonly description?: HTMLElement | undefined;
}

/** A drawn control. */
export interface Control {
  readonly element: HTMLElement;
  /** Receives the id, aria-describedby and aria-invalid. */
  readonly target: HTMLElement;
  /** A problem only the page can see (e.g. a number input holding text). */
  readonly localProblem?: () => string | undefined;
  /** Ids of the control's own hints, added to the target's aria-describedby. */
  readonly describedBy?: readonly string[];
}

/** Common attributes of a focusable control. */
export function controlAttributes(context: ControlContext): Record<string, string | boolean | undefined> {
  return {
    id: context.id,
    'data-testid': ConfigFormTestId.control,
    'data-key': context.field.key,
    'aria-required': context.field.required ? 'true' : undefined,
    disabled: context.disabled,
  };
}
