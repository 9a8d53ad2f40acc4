// What the input fillers know of one turn's words: its entities and reading at once, its terms, amounts and named things only when a field asks for them, once per plan.
import type { CueReading } from './cues.js';
import { amountsOf, type Amount } from './amounts.js';
import { extractEntities, type Entities } from './entities.js';
import { namedPhrases, type NamedPhrase } from './fieldPhrases.js';
import type { FillContext } from './inputFilling.js';
import { termsOf } from './textTerms.js';

/** What is read of the words on first need, shared by the plan's context and each skill's. */
interface Lazily {
  terms?: ReadonlySet<string>;
  amounts?: readonly Amount[];
  phrases?: readonly NamedPhrase[];
}

/** A {@link FillContext} whose costlier readings (most scripts take free text or nothing) wait until a field needs them. */
export class WordsContext implements FillContext {
  private constructor(
    readonly words: string,
    readonly entities: Entities,
    readonly deedPolarity: -1 | 0 | 1,
    readonly question: boolean,
    readonly risky: boolean,
    private readonly read: Lazily,
    readonly skillTerms?: ReadonlySet<string>,
  ) {}

  /** The context of `words`, as the selection read them (a risky deed: the chance cue). */
  static of(words: string, reading: Pick<CueReading, 'deedPolarity' | 'question' | 'cues'>): WordsContext {
    return new WordsContext(
      words,
      extractEntities(words),
      reading.deedPolarity,
      reading.question,
      reading.cues.some((cue) => cue.kind === 'chance'),
      {},
    );
  }

  /** The same words, for a skill whose own words are `skillTerms` (its things are recognised). */
  forSkill(skillTerms: ReadonlySet<string>): WordsContext {
    return new WordsContext(this.words, this.entities, this.deedPolarity, this.question, this.risky, this.read, skillTerms);
  }

  get terms(): ReadonlySet<string> {
    return (this.read.terms ??= new Set(termsOf(this.words)));
  }

  get amounts(): readonly Amount[] {
    return (this.read.amounts ??= amountsOf(this.words));
  }

  get phrases(): readonly NamedPhrase[] {
    return (this.read.phrases ??= namedPhrases(this.words));
  }
}
