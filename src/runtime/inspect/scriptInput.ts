// Checks the JSON text of a skill script's input before the Inspector (or Run Skill Script) runs it: a JSON object that its script's inputSchema accepts.
import { checkToolInput, inputChecker } from '../validation/inputChecks.js';
import type { DiagnosticDraft } from '../validation/diagnostic.js';
import { toolName, viewTools } from '../validation/planChecks.js';

/** One thing wrong with an input; `pointer` is relative to the input ('' for the whole of it). */
export interface InputProblem {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly pointer: string;
}

/** The parsed input (absent when the text is not a JSON object) and what the schema says about it. */
export interface CheckedInput {
  readonly input?: Record<string, unknown>;
  readonly problems: readonly InputProblem[];
}

/** What is checked against: the script's label for messages and its inputSchema, when it declares one. */
export interface InputTarget {
  readonly label: string;
  readonly inputSchema?: Record<string, unknown> | undefined;
}

/** True when `checked` may run: an object with no error (warnings, such as an unknown property, do not stop a run). */
export function isRunnable(checked: CheckedInput): checked is CheckedInput & { readonly input: Record<string, unknown> } {
  return checked.input !== undefined && checked.problems.every((problem) => problem.severity !== 'error');
}

/** Parses `text` and validates it with the same checks a plan's tool input gets (types, enums, required, unknown properties). */
export function checkScriptInput(text: string, target: InputTarget): CheckedInput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problems: [{ severity: 'error', pointer: '', message: `The input is not valid JSON: ${(error as Error).message}` }] };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return {
      problems: [
        {
          severity: 'error',
          pointer: '',
          message: `The input must be a JSON object, e.g. {"subject": "the lighthouse"}; got ${parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed}.`,
        },
      ],
    };
  }
  const input = parsed as Record<string, unknown>;
  if (!target.inputSchema) return { input, problems: [] };
  const [tool] = viewTools([{ toolId: target.label, input }]);
  const drafts: DiagnosticDraft[] = [];
  checkToolInput(tool!, inputChecker(target.inputSchema), target.label, drafts);
  const prefix = `${toolName(tool!)}: `;
  const base = '/tools/0/input';
  const problems = drafts.map(
    (draft): InputProblem => ({
      severity: draft.severity === 'error' ? 'error' : 'warning',
      message: draft.message.startsWith(prefix) ? draft.message.slice(prefix.length) : draft.message,
      pointer: draft.pointer.startsWith(base) ? draft.pointer.slice(base.length) : '',
    }),
  );
  return { input, problems };
}
