// engine-rules.ts — a form's rules across fields, answered by the engine (client.ts checkConfig,
// api.h check_config_json) and shown where the form says: each rule the form knows in its own
// words (a string key of the figure, in the field it concerns), any other refusal in the engine's
// own message. The rules themselves (memory, run count, a warm-up longer than the run) live in the
// engine's schema only (wasm/configs.cpp). Pure.
import type { ConfigCheck } from '../engine/client';

/** Where a form shows a rule's refusal or warning: the field it concerns and its string key. */
export type RuleAnswers = Readonly<Record<string, { field: string; key: string }>>;

/** One thing the engine said of a config: in the form's words (`key`) where the form names its
 *  rule, else in the engine's (`message`, under the field `engine`). */
export interface EngineProblem {
  field: string;
  key: string | null;
  message: string;
}

/** The field of the refusals and warnings the form does not name. */
export const ENGINE_FIELD = 'engine';

/** The engine's answer as the form's errors and warnings (none while it is being asked, or when it
 *  could not be asked: the run itself then says what is wrong). */
export function engineProblems(answer: ConfigCheck | null, rules: RuleAnswers): { errors: EngineProblem[]; warnings: EngineProblem[] } {
  const place = (rule: string | undefined, message: string): EngineProblem => {
    const r = rule != null && Object.hasOwn(rules, rule) ? rules[rule] : null;
    return r ? { field: r.field, key: r.key, message } : { field: ENGINE_FIELD, key: null, message };
  };
  if (answer?.ok === false) return { errors: [place(answer.rule, answer.message)], warnings: [] };
  if (answer?.ok === true) return { errors: [], warnings: (answer.warnings ?? []).map((w) => place(w.rule, w.message)) };
  return { errors: [], warnings: [] };
}

/** The first problem the engine gave for a field, if any. */
export const problemAt = (list: readonly EngineProblem[], field: string): EngineProblem | undefined => list.find((p) => p.field === field);
