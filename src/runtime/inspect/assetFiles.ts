// Which file an asset event shows in the Inspector: its path resolved as the executor's AttemptCollector resolves it, shown only from inside the allowed folders (symlinks followed), else the reason.
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { AssetEvent } from '../contractTypes/toolEvent.js';
import { FolderGate } from '../common/pathContainment.js';

/** Media a webview can draw (as the play panel's story view). */
const PREVIEWABLE_MEDIA = /^(image|audio|video)\//i;
/** How far above a script its skill's folder (the one with skill.json) is looked for. */
const SKILL_SEARCH_DEPTH = 4;

/** Where a run's asset files come from. */
export interface AssetScope {
  /** The folder relative paths resolve against (the script's working directory); undefined when unknown. */
  readonly base: string | undefined;
  /** The folders files may be shown from. */
  readonly allowed: readonly string[];
  /** Why a file outside them is not shown. */
  readonly outsideReason: string;
}

/** The file to show, or why there is none. */
export type AssetFile = { readonly file: string } | { readonly reason: string };

/** Resolves asset events of one scope; the allowed folders' real paths are looked up once. */
export class AssetFiles {
  private readonly gate: FolderGate;

  constructor(private readonly scope: AssetScope) {
    this.gate = new FolderGate(scope.allowed);
  }

  resolve(event: AssetEvent): AssetFile {
    if (!PREVIEWABLE_MEDIA.test(event.mediaType)) return { reason: `${event.mediaType} cannot be previewed` };
    const base = this.scope.base;
    if (base === undefined && !path.isAbsolute(event.path)) return { reason: 'the recording does not say which folder its paths are relative to' };
    const file = path.resolve(base ?? path.sep, event.path);
    if (!isFile(file)) return { reason: `${file} does not exist (or is not a file)` };
    // Both the path the view asks for and the file it reaches after symlinks must be inside an allowed folder.
    return this.gate.allows(file) ? { file } : { reason: this.scope.outsideReason };
  }
}

/** The folder holding the script's skill.json (else the script's grandparent, as in `<skill>/scripts/x.js`). */
export function skillFolderOf(scriptPath: string): string {
  let folder = path.dirname(scriptPath);
  for (let depth = 0; depth < SKILL_SEARCH_DEPTH; depth++) {
    if (existsSync(path.join(folder, 'skill.json'))) return folder;
    const parent = path.dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return path.dirname(path.dirname(scriptPath));
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
