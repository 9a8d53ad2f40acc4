// Skill types (mirrors contracts/skill-manifest.schema.json plus what discovery and health add). Pure data.

/** Health of a skill (docs/design-rules.md#skill-health). */
export type SkillHealth = 'healthy' | 'degraded' | 'temporaryFailure' | 'permanentFailure';

/** Mirrors `#/$defs/SkillScript` of contracts/skill-manifest.schema.json. */
export interface SkillManifestScript {
  readonly name: string;
  readonly path: string;
  readonly description?: string;
  readonly inputSchema?: string;
  readonly timeout?: number;
  readonly required?: boolean;
  readonly rollback?: string;
  /** Addition (issue 13): player inputs that should select this script, for the pattern narrator. */
  readonly examples?: readonly string[];
  /** Addition (issue 41): other names of the script that a plan's toolPath may use (e.g. other runtimes' names). */
  readonly aliases?: readonly string[];
}

/** Mirrors contracts/skill-manifest.schema.json. */
export interface SkillManifest {
  readonly name: string;
  readonly displayName?: string;
  readonly version: string;
  readonly description: string;
  readonly author?: string;
  readonly license?: string;
  readonly homepage?: string;
  readonly prompt?: string;
  readonly configSchema?: string;
  readonly scripts?: readonly SkillManifestScript[];
  readonly capabilities?: readonly string[];
  /** Addition (issue 13): words that should select this skill, for the pattern narrator. */
  readonly keywords?: readonly string[];
  readonly dependencies?: readonly string[];
  readonly priority?: number;
  readonly retryPolicy?: { readonly maxRetries?: number; readonly backoffMs?: number };
}

/** One runnable script of a discovered skill. */
export interface SkillScript {
  readonly name: string;
  /** Absolute real path of the file. */
  readonly path: string;
  /** Path relative to the story root with forward slashes (what a plan's toolPath uses), e.g. skills/dice-roller/scripts/roll.js. */
  readonly toolPath: string;
  readonly description?: string;
  /** The parsed input schema, when the manifest names one and it loads. */
  readonly inputSchema?: Record<string, unknown>;
  readonly timeoutMs: number;
  readonly required: boolean;
  readonly executable: boolean;
  /** True when the manifest lists it; false when only found in scripts/. */
  readonly declared: boolean;
  /** The manifest's `aliases` of the script that name no other script (see scriptAliases.ts); absent when none. */
  readonly aliases?: readonly string[];
  /**
   * Why the script cannot run on this machine, when its interpreter is not on PATH: `needs Dart, and "dart" is not
   * on PATH: install ...` (see process/interpreter.ts). The skill is then degraded; its other scripts still run.
   */
  readonly missingInterpreter?: string;
}

/** A problem found while loading a skill; `error` problems make the skill unusable. */
export interface SkillProblem {
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
  /** File the problem is in (absolute). */
  readonly file?: string;
  /** JSON pointer into that file, when known. */
  readonly pointer?: string;
  /** 1-based line of the start of the problem in `file`, when known (a manifest's problems always have one). */
  readonly line?: number;
  /** 1-based column (UTF-16 code units) of the start, with `line`. */
  readonly column?: number;
  /** 1-based line just after the end of the range, with `line`. */
  readonly endLine?: number;
  /** 1-based column just after the end of the range (exclusive), with `line`. */
  readonly endColumn?: number;
  /** The skill the problem belongs to (its folder's name for a skill whose skill.json is broken), when known. */
  readonly skill?: string;
}

/**
 * A skill folder whose skill.json cannot be read, does not parse or does not validate: discovery could not load
 * it, so no narrator, plan or playtest can use it. It is `unusable` (see {@link SkillHealthLabel}).
 */
export interface BrokenSkill {
  /** The folder's name: what plans (`skills/<name>/…`) and playtests call the skill. */
  readonly name: string;
  /** The skill folder, as found under its skills root. */
  readonly directory: string;
  /** Real path of the skill folder (symlinks resolved), to match resolved toolPaths against. */
  readonly realDirectory: string;
  readonly manifestPath: string;
  /** Why: MANIFEST_JSON_INVALID (one problem) or MANIFEST_INVALID (one per schema violation), with their positions. */
  readonly problems: readonly SkillProblem[];
}

/**
 * How every view names a skill's health, in one vocabulary: `healthy`; `degraded` (recent failures, or a
 * temporary failure such as a timeout); `unusable` (a broken skill.json, an error in its config or scripts, or
 * permanently failing this session); `disabled` (by the user). See docs/design-rules.md#skill-health.
 */
export type SkillHealthLabel = 'healthy' | 'degraded' | 'unusable' | 'disabled';

/** A skill as discovery found it (health and enablement live in the registry). */
export interface Skill {
  readonly name: string;
  readonly displayName: string;
  readonly version: string;
  readonly description: string;
  readonly author?: string;
  readonly directory: string;
  /** The skill folder as a plan's toolPath writes it: relative to the story root with forward slashes (`skills/dice-roller`), absolute outside it. */
  readonly planPath?: string;
  readonly manifestPath: string;
  readonly manifest: SkillManifest;
  readonly capabilities: readonly string[];
  readonly priority: number;
  readonly scripts: readonly SkillScript[];
  /** Contents of prompt.md (the behavioral prompt), when present. */
  readonly prompt?: string;
  /** Parsed config-schema.json, when present and valid against the meta-schema. */
  readonly configSchema?: Record<string, unknown>;
  /** Problems with the config (schema or values); the skill still loads. */
  readonly problems: readonly SkillProblem[];
  /** Addition: the prompt file read (absolute), when present. */
  readonly promptFile?: string;
  /** Addition: the config schema file (absolute), when present. */
  readonly configSchemaFile?: string;
  /** Addition: config.json (absolute), when present. */
  readonly configFile?: string;
  /** Addition: the effective configuration with `x-sensitive` values redacted (safe to show or log). */
  readonly config?: Readonly<Record<string, unknown>>;
}

/** What the narrator sees of a skill: enough to choose it and call its scripts. */
export interface NarratorSkill {
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly capabilities: readonly string[];
  readonly priority: number;
  readonly health: SkillHealth;
  readonly prompt?: string;
  /** The manifest's `keywords`, when it has them. */
  readonly keywords?: readonly string[];
  readonly scripts: readonly {
    readonly name: string;
    readonly toolPath: string;
    readonly description?: string;
    readonly inputSchema?: Record<string, unknown>;
    /** The manifest's `examples` of the script, when it has them. */
    readonly examples?: readonly string[];
  }[];
}
