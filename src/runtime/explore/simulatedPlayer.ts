// A simulated player: each turn its own seeded generator picks an input from the last turn's choices, the manifests' actions, the built-in vocabulary, or an action on a seen entity.
import { seededRandom } from '../common/seed.js';
import { BUILT_IN_VOCABULARY, ENTITY_ACTIONS, fillTemplate, SeenEntities } from './playerActions.js';
import type { InputSource } from './exploreTypes.js';

/** What a player sees after a turn. */
export interface PlayerView {
  readonly choices: readonly string[];
  readonly narration: string;
  readonly state: Record<string, unknown>;
}

export interface PlayerMove {
  readonly input: string;
  /** 1-based, when the input is one of the offered choices. */
  readonly choice?: number;
  readonly source: InputSource;
}

export class SimulatedPlayer {
  private readonly random: () => number;
  private readonly entities = new SeenEntities();
  private view: PlayerView | undefined;

  constructor(
    seed: number,
    private readonly manifestActions: readonly string[],
  ) {
    this.random = seededRandom(seed);
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.min(items.length - 1, Math.floor(this.random() * items.length))]!;
  }

  /** Tells the player what the last turn showed. */
  observe(view: PlayerView): void {
    this.view = view;
    this.entities.addText(view.narration);
    this.entities.addState(view.state);
  }

  /** The next input. Choices, when offered, are taken two times in five; the rest splits between manifest actions, the vocabulary and entities. */
  next(): PlayerMove {
    const choices = this.view?.choices ?? [];
    const roll = this.random();
    if (choices.length > 0 && roll < 0.4) {
      const index = Math.floor(this.random() * choices.length);
      return { input: choices[index]!, choice: index + 1, source: 'choice' };
    }
    const rest = this.random();
    const pick = <T>(items: readonly T[]) => this.pick(items);
    if (this.manifestActions.length > 0 && rest < 0.5) return { input: this.pick(this.manifestActions), source: 'manifest' };
    if (this.entities.any && rest < 0.75) return { input: fillTemplate(this.pick(ENTITY_ACTIONS), this.entities, pick), source: 'entity' };
    return { input: fillTemplate(this.pick(BUILT_IN_VOCABULARY), this.entities, pick), source: 'vocabulary' };
  }
}
