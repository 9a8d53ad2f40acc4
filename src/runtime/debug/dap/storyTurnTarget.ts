// The debug target of a story turn: a campaign's inputs played on a copy of the session, held where a scene begins; frames: the beats and the scene.
import { PatternNarrator } from '../../narrator/patternNarrator.js';
import { PlaySession } from '../../session/playSession.js';
import { SkillRegistry } from '../../skills/skillRegistry.js';
import { DebugHistory, type DebugPoint } from '../debugHistory.js';
import { PLAN_THREAD_ID, type DebugThread } from '../debugStop.js';
import { forwardRunOutput } from '../runOutput.js';
import { storyScopeOf } from '../storyScope.js';
import { StoryTurnRun, type StoryStop } from '../storyTurnRun.js';
import type { FrameReference } from './debugFrames.js';
import type { DebugTarget, DebugTargetContext, StepMotion, TargetFrame, TargetScope } from './debugTarget.js';
import { storyWorkspace, type StoryLaunchTarget } from './storyLaunch.js';

const READ_ONLY = "a story turn's Story and State are read-only here: edit the state a tool receives by debugging its plan";

export class StoryTurnTarget implements DebugTarget {
  /** A story turn records no plan points: time travel is a plan's. */
  readonly history = new DebugHistory();
  private run: StoryTurnRun | undefined;
  private finished: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly launch: StoryLaunchTarget,
    private readonly context: DebugTargetContext,
  ) {}

  get plan(): StoryLaunchTarget['plan'] {
    return this.launch.plan;
  }

  get beats(): StoryLaunchTarget['catalog'] {
    return this.launch.catalog;
  }

  start(): void {
    this.finished = this.play()
      .catch((error: unknown) => this.context.events.output('stderr', `The story turn stopped: ${error instanceof Error ? error.message : String(error)}\n`))
      .finally(() => this.context.events.ended());
  }

  threads(): readonly DebugThread[] {
    return [{ id: PLAN_THREAD_ID, name: 'story' }];
  }

  referenceOf(threadId: number): FrameReference | undefined {
    const stop = this.run?.stop;
    if (!stop || threadId !== PLAN_THREAD_ID) return undefined;
    const point: DebugPoint = {
      index: -1,
      kind: 'tool',
      toolId: `scene ${stop.scene.scene}`,
      attempt: 1,
      skill: null,
      state: stop.scene.state,
      input: {},
      dependencies: {},
      timeMs: 0,
    };
    return { point, threadId, live: true };
  }

  focusedThread(): number {
    return PLAN_THREAD_ID;
  }

  pointOf(frame: FrameReference): DebugPoint {
    return frame.point;
  }

  /** The held scene's frames: each beat whose breakpoint holds (else each beat that triggered), at its object in the beats file, then the scene. */
  framesOf(): readonly TargetFrame[] {
    const stop = this.run?.stop;
    if (!stop) return [];
    const ids = stop.beats.length > 0 ? stop.beats : stop.scene.beats.triggered.map((entry) => entry.beat.id);
    const frames: TargetFrame[] = ids.map((id) => {
      const location = this.launch.catalog.beats.find((beat) => beat.id === id);
      return { name: `${id}: ${location?.title ?? id}`, file: location?.file, range: location?.range };
    });
    // Under the beats the scene is a label; alone (no beat triggered) it is the frame VS Code focuses.
    frames.push({
      name: `scene ${stop.scene.scene}: ${JSON.stringify(clip(stop.scene.input, 60))}`,
      file: undefined,
      range: undefined,
      label: frames.length > 0,
    });
    return frames;
  }

  /** Story (the scene count, the beats, the flags) and the session state as the scene's turn receives it. */
  scopesOf(): readonly TargetScope[] {
    const stop = this.run?.stop;
    if (!stop) return [];
    return [
      { name: 'Story', value: storyScopeOf(this.launch.story.campaign, stop.scene) },
      { name: 'State', value: stop.scene.state },
    ];
  }

  editable(): boolean {
    return false;
  }

  edit(): string | undefined {
    return READ_ONLY;
  }

  exceptionOf(): string | undefined {
    return undefined;
  }

  setExceptionFilters(): void {
    // A story turn's plans run as in play: no tool stops.
  }

  continue(): void {
    this.run?.continue();
  }

  /** Step Over and Step Into play the held turn and hold where the next scene begins; Step Out runs on. */
  step(_threadId: number, motion: StepMotion): void {
    if (motion === 'stepOut') this.run?.continue();
    else this.run?.next();
  }

  pause(): void {
    this.run?.pause();
  }

  backRefusal(): string | undefined {
    return "a story turn cannot step back: debug a turn's plan (or replay its run record) to travel back in time";
  }

  back(): void {
    // Refused (backRefusal).
  }

  restartRefusal(): string | undefined {
    return "Restart Frame restarts a plan's tool: launch the story turn again to replay its scenes";
  }

  async restartFrom(): Promise<void> {
    // Refused (restartRefusal).
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.run?.terminate();
    await this.finished;
  }

  private async play(): Promise<void> {
    const { host, args, breakpoints, noDebug, events } = this.context;
    const launch = this.launch;
    const workspace = await storyWorkspace(launch);
    const extraSkillRoots = [...(host.extraSkillRoots ?? []), ...(host.storySkillRoots ?? [])];
    const registry = await SkillRegistry.load({ root: launch.root, extraSkillRoots, environment: process.env });
    const extraEnv = await host.scriptEnvironment?.();
    const run = new StoryTurnRun({ inputs: launch.inputs, breakpoints: noDebug ? undefined : breakpoints.beats, stopOnEntry: args.stopOnEntry === true });
    this.run = run;
    run.onDidStop((stop) => this.stopped(stop));
    run.onDidOutput((line) => events.output(line.category, line.text));
    let session: PlaySession | undefined;
    try {
      session = await PlaySession.open({
        root: launch.root,
        file: workspace.file,
        narrator: host.narrator ?? new PatternNarrator(),
        skills: registry,
        execution: {
          extraSkillRoots,
          ...(host.allowedToolRoots ? { allowedToolRoots: host.allowedToolRoots } : {}),
          skillContext: host.skillContext ?? registry,
          ...(extraEnv ? { extraEnv } : {}),
          concurrency: args.concurrency,
          toolTimeoutMs: args.toolTimeoutMs,
          planTimeoutMs: args.planTimeoutMs,
        },
        attemptLogFile: null,
        seed: launch.seed,
        initialState: launch.initialState,
        dataScope: workspace.dataScope,
        refuseUnreadable: true,
        story: launch.story,
        beforeScene: run.beforeScene,
      });
      const opened = session;
      opened.onDidStartPlanRun(({ run: planRun }) => forwardRunOutput(planRun, (line) => events.output(line.category, line.text)));
      const from = launch.session
        ? `the saved session ${launch.session.label} (scene ${sceneOf(opened.state)}), played on a copy: the saved session does not change`
        : `a new session (seed ${opened.seed}: set "seed" to play the same one again)`;
      events.output('console', `Debugging ${launch.inputs.length} story turn(s) of "${launch.story.title}" from ${from}.\n`);
      if (this.stopping) return;
      const results = await run.start((input, signal) => opened.play(input, signal));
      const done = Object.entries((opened.state['campaign'] as { beats?: Record<string, { status?: string }> } | undefined)?.beats ?? {})
        .filter(([, record]) => record.status === 'done')
        .map(([id]) => id);
      events.output('console', `Played ${results.length} turn(s); at scene ${sceneOf(opened.state)}, beats done: ${done.join(', ') || 'none'}.\n`);
    } finally {
      session?.dispose();
      run.dispose();
      registry.dispose();
      await workspace.dispose();
    }
  }

  private stopped(stop: StoryStop): void {
    this.context.events.stopped({ reason: stop.reason, threadId: PLAN_THREAD_ID, hitBreakpointIds: stop.hitBreakpointIds, description: stop.description });
  }
}

function sceneOf(state: Readonly<Record<string, unknown>>): number {
  const scene = (state['campaign'] as { scene?: unknown } | undefined)?.scene;
  return typeof scene === 'number' ? scene : 0;
}

function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 3)}...` : text;
}
