// What the plan debug adapter needs from where it runs (VS Code's extension host, or `narratoria debug-adapter`), and what it reports back.
import type { PlanRun } from '../../executor/planExecutor.js';
import type { Plan } from '../../contractTypes/plan.js';
import type { SkillContextProvider } from '../../skills/skillContext.js';
import type { Narrator } from '../../narrator/index.js';
import type { NarratorSkill } from '../../skills/skillTypes.js';

export interface DebugHost {
  /** The story root used when a plan has no ancestor folder with `skills/` (the workspace folder). */
  readonly workspaceFolder?: string | undefined;
  /** More directories whose scripts are trusted (the bundled sample skills). */
  readonly extraSkillRoots?: readonly string[] | undefined;
  /** Folders outside the skill directories whose scripts a plan may run (`narratoria.allowedToolRoots`, in a trusted workspace). */
  readonly allowedToolRoots?: readonly string[] | undefined;
  /** False in Restricted Mode: live launches are refused, replays are allowed. */
  readonly isTrusted: () => boolean;
  /** Skill configuration and environment (the extension's registry); manifests only when absent. */
  readonly skillContext?: SkillContextProvider | undefined;
  /** Who writes more steps when a tool asks for more context (the play narrator); the pattern narrator when absent. */
  readonly narrator?: Narrator | undefined;
  /** The skills that narrator may use; read from the story when absent. */
  readonly narratorSkills?: (() => readonly NarratorSkill[]) | undefined;
  /** More skills roots a story turn plays with, as `narratoria play` does (the bundled sample skills outside VS Code); plans do not use them. */
  readonly storySkillRoots?: readonly string[] | undefined;
  /** What a story turn's scripts get besides the minimal environment, as in play (the local model's endpoint); none when absent. */
  readonly scriptEnvironment?: (() => Promise<Readonly<Record<string, string>>>) | undefined;
}

/** A live run the session started (the graph view attaches to it). */
export interface DebugRunStarted {
  /** Absolute path of the plan file, when the plan came from one. */
  readonly planFile: string | undefined;
  readonly plan: Plan;
  readonly run: PlanRun;
}

/** Where the session is paused (undefined once it runs again or ends). */
export interface DebugLocation {
  readonly planFile: string | undefined;
  readonly toolId: string;
}
