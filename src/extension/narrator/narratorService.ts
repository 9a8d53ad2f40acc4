// Chooses and holds the narrator (pattern or local model) from the settings, and reports its state; never loads a model on activation.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GeneratedPlan, Narrator, PlanRequest, ReflectionRequest } from '../../runtime/narrator/index.js';
import type { Reflection } from '../../runtime/executor/reflection.js';
import { LlamaNarrator } from '../../runtime/narrator/llamaNarrator.js';
import { createNarrator, type NarratorChoice } from '../../runtime/narrator/narratorFactory.js';
import { DEFAULT_MODEL } from '../../runtime/narrator/modelStore.js';
import type { NarratorStatusView } from '../../protocol/playPanelMessages.js';
import type { NarratoriaSettings } from '../settings.js';
import type { NarratorSkill } from '../../runtime/skills/skillTypes.js';

export interface NarratorServiceOptions {
  readonly root: string | undefined;
  readonly settings: () => NarratoriaSettings;
  readonly log: vscode.LogOutputChannel;
  /** The skills a turn offers the narrator: the local model evaluates their fixed prompt when it loads. */
  readonly skills?: () => Promise<readonly NarratorSkill[]>;
}

/**
 * Owns the current narrator. `narrator` is a stable stand-in that forwards to whichever narrator the
 * settings ask for, so a play session keeps working when the settings or the downloaded model change.
 * The model is verified and loaded on the first turn (or `prepare()`), in its own process.
 */
export class NarratorService implements vscode.Disposable {
  private choice: Promise<NarratorChoice> | undefined;
  private preparing: Promise<void> | undefined;
  private current: NarratorStatusView = { state: 'pattern', label: 'Narrator', detail: 'The narrator is chosen when the first turn is played.' };
  private downloadPercent: number | undefined;
  private readonly statusEmitter = new vscode.EventEmitter<NarratorStatusView>();
  /** Fires whenever the narrator state (or download progress) changes. */
  readonly onDidChangeStatus = this.statusEmitter.event;
  private readonly choiceEmitter = new vscode.EventEmitter<void>();
  /** Fires after `reset()`: the next turn chooses the narrator (and the scripts' model environment) again. */
  readonly onDidChangeChoice = this.choiceEmitter.event;
  /** Counts resets, so a choice or a load that outlived its reset cannot overwrite the status. */
  private generation = 0;

  /** The narrator to give a play session: forwards to the current choice. */
  readonly narrator: Narrator = {
    kind: 'auto',
    generatePlan: async (request: PlanRequest): Promise<GeneratedPlan> => {
      const choice = await this.ensureChoice();
      // Tracks the model load for the status bar without holding the turn: a slow load falls back within the budget.
      void this.prepare();
      const generated = await choice.narrator.generatePlan(request);
      if (generated.fallbackReason) this.options.log.warn(`narrator fell back to the pattern narrator: ${generated.fallbackReason}`);
      return generated;
    },
    reflect: async (request: ReflectionRequest): Promise<Reflection | undefined> => {
      const narrator = (await this.ensureChoice()).narrator;
      return narrator.reflect ? narrator.reflect(request) : undefined;
    },
    dispose: async () => undefined,
  };

  constructor(private readonly options: NarratorServiceOptions) {
    // Choosing only reads settings and the model cache (no process, no model load), so the status bar is right from the start.
    void this.ensureChoice();
  }

  get status(): NarratorStatusView {
    return this.downloadPercent === undefined
      ? this.current
      : {
          state: 'downloading',
          label: `Downloading model ${this.downloadPercent}%`,
          detail: 'Download Narrator Model is running; the current narrator keeps working meanwhile.',
          percent: this.downloadPercent,
        };
  }

  /** The narrator the settings chose (created on first use; the local model loads on its first plan or prepare()). */
  currentChoice(): Promise<NarratorChoice> {
    return this.ensureChoice();
  }

  /** Environment for skill scripts (the storyteller's local provider uses the model too). */
  async scriptEnvironment(): Promise<Readonly<Record<string, string>>> {
    return (await this.ensureChoice()).scriptEnvironment;
  }

  /** Chooses the narrator and, for the local model, verifies and loads it now (e.g. when the play panel opens). Shared by concurrent callers. */
  prepare(): Promise<void> {
    this.preparing ??= this.prepareNow().catch((error: unknown) => this.options.log.error(`preparing the narrator failed: ${String(error)}`));
    return this.preparing;
  }

  private async prepareNow(): Promise<void> {
    const generation = this.generation;
    const choice = await this.ensureChoice();
    if (!(choice.narrator instanceof LlamaNarrator) || generation !== this.generation) return;
    this.setStatus({ state: 'loading', label: 'Loading model…', detail: choice.reason });
    const started = performance.now();
    // The fixed prompt is evaluated (or loaded from the prompt cache) right after the model, while the author reads.
    const skills = await this.options.skills?.().catch(() => undefined);
    const failure = await choice.narrator.prepare(skills);
    if (generation !== this.generation) return;
    if (failure) {
      this.options.log.warn(`the local model is not usable, plans come from the pattern narrator: ${failure}`);
      this.setStatus({
        state: 'failed',
        label: 'Pattern narrator (model failed)',
        detail: `The local model could not be loaded (${failure}); plans come from the pattern narrator.`,
      });
    } else {
      this.options.log.info(`local model ready in ${Math.round(performance.now() - started)} ms`);
      this.setStatus({ state: 'ready', label: `${modelLabel(choice)} ready`, detail: choice.reason });
    }
  }

  /** Forgets the current narrator (settings changed or a model was downloaded); the next turn chooses again. */
  async reset(): Promise<void> {
    const previous = this.choice;
    this.generation++;
    this.choice = undefined;
    this.preparing = undefined;
    this.choiceEmitter.fire();
    void this.ensureChoice();
    if (previous) await (await previous).narrator.dispose().catch(() => undefined);
  }

  /** Reports download progress (0..100) or its end (undefined). */
  setDownloadProgress(percent: number | undefined): void {
    this.downloadPercent = percent;
    this.statusEmitter.fire(this.status);
  }

  dispose(): void {
    this.generation++;
    void this.choice?.then(
      (choice) => choice.narrator.dispose(),
      () => undefined,
    );
    this.choice = undefined;
    this.statusEmitter.dispose();
    this.choiceEmitter.dispose();
  }

  private ensureChoice(): Promise<NarratorChoice> {
    this.choice ??= this.choose();
    return this.choice;
  }

  private async choose(): Promise<NarratorChoice> {
    const generation = this.generation;
    const settings = this.options.settings();
    const choice = await createNarrator({
      mode: settings.narratorMode,
      root: this.options.root ?? process.cwd(),
      modelPath: settings.modelPath,
      budgetMs: settings.narratorBudgetMs,
      threads: settings.narratorThreads,
      onLog: (message) => this.options.log.debug(message),
    });
    if (generation !== this.generation) return choice;
    this.options.log.info(`narrator: ${choice.reason}`);
    if (choice.narrator instanceof LlamaNarrator) {
      this.setStatus({
        state: 'idle',
        label: 'Model not loaded',
        detail: `${choice.reason}. The model loads when the play panel opens or the first turn is played.`,
      });
    } else if (choice.localModelUnavailable) {
      this.setStatus({ state: 'pattern', label: 'Pattern narrator (no model support)', detail: `Plans come from the ${choice.reason}.` });
    } else {
      this.setStatus({ state: 'pattern', label: 'Pattern narrator', detail: choice.reason });
    }
    return choice;
  }

  private setStatus(status: NarratorStatusView): void {
    this.current = status;
    this.statusEmitter.fire(this.status);
  }
}

function modelLabel(choice: NarratorChoice): string {
  const modelPath = choice.scriptEnvironment['NARRATORIA_MODEL_PATH'];
  if (!modelPath || path.basename(modelPath) === DEFAULT_MODEL.file) return 'Phi-3.5-mini';
  return path.basename(modelPath);
}
