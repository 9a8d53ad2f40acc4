// Test helpers for the LLM narrator: the real skills catalog as NarratorSkills, tiny models in a temp dir, a recording fallback narrator, the tsx worker command.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GeneratedPlan, Narrator, PlanRequest } from '../../../src/runtime/narrator/index.js';
import type { WorkerCommand } from '../../../src/runtime/narrator/modelWorkerClient.js';
import type { NarratorSkill } from '../../../src/runtime/skills/skillTypes.js';
import { makeTinyGguf, type TinyGgufOptions } from '../../fixtures/models/makeTinyGguf.js';

/** The repository root (the story root of the shipped skills). */
export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The model worker run from its TypeScript source through tsx. */
export const TSX_WORKER: WorkerCommand = {
  command: process.execPath,
  args: ['--import', 'tsx', path.join(REPOSITORY_ROOT, 'src/runtime/narrator/modelWorker.ts')],
};

/** Reads skills/<name>/skill.json, prompt.md and script input schemas into what a narrator sees. */
export function loadShippedSkills(names: readonly string[] = ['dice-roller', 'storyteller']): NarratorSkill[] {
  return names.map((name) => {
    const directory = path.join(REPOSITORY_ROOT, 'skills', name);
    const manifest = JSON.parse(fs.readFileSync(path.join(directory, 'skill.json'), 'utf8')) as {
      name: string;
      displayName?: string;
      description: string;
      capabilities?: string[];
      priority?: number;
      prompt?: string;
      scripts?: { name: string; path: string; description?: string; inputSchema?: string }[];
    };
    const prompt = manifest.prompt ? fs.readFileSync(path.join(directory, manifest.prompt), 'utf8') : undefined;
    return {
      name: manifest.name,
      displayName: manifest.displayName ?? manifest.name,
      description: manifest.description,
      capabilities: manifest.capabilities ?? [],
      priority: manifest.priority ?? 50,
      health: 'healthy',
      ...(prompt ? { prompt } : {}),
      scripts: (manifest.scripts ?? []).map((script) => ({
        name: script.name,
        toolPath: `skills/${name}/${script.path}`,
        ...(script.description ? { description: script.description } : {}),
        ...(script.inputSchema
          ? { inputSchema: JSON.parse(fs.readFileSync(path.join(directory, script.inputSchema), 'utf8')) as Record<string, unknown> }
          : {}),
      })),
    };
  });
}

/** A plan request over the shipped skills. */
export function planRequest(overrides: Partial<PlanRequest> = {}): PlanRequest {
  return { input: 'I try to pick the lock on the chest', skills: loadShippedSkills(), disabledSkills: [], attempt: 1, parentPlanId: null, ...overrides };
}

/** A temporary directory with tiny models; `remove()` deletes it. Generated models never land in the repository. */
export interface ModelDirectory {
  readonly directory: string;
  /** Writes a tiny model (context 4096 so the prompts fit) and returns its path. */
  model(name: string, options?: TinyGgufOptions): string;
  remove(): void;
}

export function createModelDirectory(): ModelDirectory {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'narratoria-models-'));
  return {
    directory,
    model: (name, options = {}) => makeTinyGguf(path.join(directory, name), { contextLength: 4096, ...options }).path,
    remove: () => fs.rmSync(directory, { recursive: true, force: true }),
  };
}

/** A fallback narrator that returns a fixed narrative-only plan and counts its calls. */
export class RecordingNarrator implements Narrator {
  readonly kind = 'pattern' as const;
  calls = 0;
  async generatePlan(request: PlanRequest): Promise<GeneratedPlan> {
    this.calls++;
    const plan = {
      requestId: '00000000-0000-4000-8000-000000000000',
      narrative: 'fallback',
      tools: [],
      disabledSkills: [...request.disabledSkills],
      metadata: { generationAttempt: request.attempt, parentPlanId: request.parentPlanId, narrator: 'pattern' },
    };
    return { plan, narrator: 'pattern', generationMs: 0 };
  }
  async dispose(): Promise<void> {}
}
