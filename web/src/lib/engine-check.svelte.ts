// engine-check.svelte.ts — a form's standing question to the engine: would it take the config the
// form now describes? Asked again whenever that config changes (the answer comes back from the
// worker in milliseconds once the engine is loaded; an answer to an older config is dropped).
import { checkConfig, type CheckKind, type ConfigCheck } from '../engine/client';

export class EngineCheck {
  /** the engine's answer for the config last asked; null while it is asked, or when nothing is */
  answer = $state<ConfigCheck | null>(null);
  #asked = '';
  readonly #kind: CheckKind;

  constructor(kind: CheckKind) {
    this.#kind = kind;
  }

  /** Ask about `config` (null: ask nothing, forget the answer). Asking the same config again is free. */
  ask(config: unknown): void {
    const key = config == null ? '' : JSON.stringify(config);
    if (key === this.#asked) return;
    this.#asked = key;
    this.answer = null;
    if (config == null) return;
    void checkConfig(this.#kind, config).then((a) => {
      if (this.#asked === key) this.answer = a;
    });
  }
}
