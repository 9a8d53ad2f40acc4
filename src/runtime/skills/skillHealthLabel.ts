// The one vocabulary every view uses for a skill's health (healthy, degraded, unusable, disabled), and why, from the registry's status. Pure.
import type { SkillHealth, SkillHealthLabel } from './skillTypes.js';
import { plural } from '../common/humanText.js';

/** What the label is worked out from: a SkillStatus of the registry fits. */
export interface HealthLabelInput {
  /** False when the user disabled the skill. */
  readonly enabled: boolean;
  /** False when the skill has an `error` problem (config, scripts). */
  readonly usable: boolean;
  readonly health: { readonly state: SkillHealth; readonly consecutiveFailures?: number };
  /**
   * One sentence per script whose interpreter is not on PATH (`the script "roll-dice" needs Dart, and "dart" is not on
   * PATH: install ...`): the skill is degraded, its other scripts still run. See {@link missingInterpretersOf}.
   */
  readonly missingInterpreters?: readonly string[] | undefined;
}

/**
 * The label of a skill: `disabled` when the user disabled it; else `unusable` when it has an error problem or
 * is in permanentFailure; else `degraded` when degraded or in temporaryFailure, or when a script's interpreter is
 * not on PATH; else `healthy`. A skill whose skill.json is broken is never loaded and is always `unusable` (see BrokenSkill).
 */
export function healthLabelOf(status: HealthLabelInput): SkillHealthLabel {
  if (!status.enabled) return 'disabled';
  if (!status.usable || status.health.state === 'permanentFailure') return 'unusable';
  if (status.health.state === 'degraded' || status.health.state === 'temporaryFailure') return 'degraded';
  if ((status.missingInterpreters?.length ?? 0) > 0) return 'degraded';
  return 'healthy';
}

/** The {@link HealthLabelInput.missingInterpreters} of a skill's scripts. */
export function missingInterpretersOf(scripts: readonly { readonly name: string; readonly missingInterpreter?: string | undefined }[]): string[] {
  return scripts.flatMap((script) => (script.missingInterpreter === undefined ? [] : [`the script "${script.name}" ${script.missingInterpreter}`]));
}

/** Why the skill has its label, in a few words ("" for a healthy skill with no failures counted). */
export function healthReasonOf(status: HealthLabelInput): string {
  if (!status.enabled) return 'disabled by the user';
  if (!status.usable) return 'an error in its configuration or scripts';
  const reason = failureReason(status);
  const missing = status.health.state === 'permanentFailure' ? [] : (status.missingInterpreters ?? []);
  return [reason, ...missing].filter((part) => part !== '').join('; ');
}

function failureReason(status: HealthLabelInput): string {
  const failures = status.health.consecutiveFailures ?? 0;
  const counted = failures > 0 ? `${plural(failures, 'failure')} in a row` : '';
  switch (status.health.state) {
    case 'permanentFailure':
      return 'its scripts kept failing this session (until the session restarts)';
    case 'temporaryFailure':
      return 'a temporary failure (a timeout or a network error)';
    case 'degraded':
      return `recent failures${counted ? ` (${counted})` : ''}`;
    case 'healthy':
      return counted;
  }
}

/** The label of a skill whose skill.json is broken. */
export const BROKEN_SKILL_LABEL: SkillHealthLabel = 'unusable';
