import type { CompleteResult } from "../../protocol/types.js";
import type { HandlerResult, MaybePromise } from "../types.js";

/**
 * Suggests values for one prompt argument or template variable.
 * @param value - what the user typed so far
 * @param context - values of the other arguments already chosen
 */
export type Completer = (value: string, context: { arguments: Record<string, string> }) => MaybePromise<readonly string[]>;

const MAX_VALUES = 100;

/** Runs a completer and shapes its answer (at most 100 values, as the spec caps it). @internal */
export async function complete(
  completer: Completer | undefined,
  value: string,
  context: Record<string, string> | undefined,
): Promise<HandlerResult<CompleteResult>> {
  if (completer === undefined) return { completion: { values: [] } };
  const values = await completer(value, { arguments: context ?? {} });
  if (!Array.isArray(values) || values.some((item) => typeof item !== "string")) {
    throw new TypeError("a completer must return an array of strings");
  }
  if (values.length <= MAX_VALUES) return { completion: { values: [...values], total: values.length, hasMore: false } };
  return { completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: true } };
}

/** Checks the `complete` map of a registration. @internal */
export function checkCompleters(completers: unknown, label: string, allowed: readonly string[]): Record<string, Completer> {
  if (completers === undefined) return {};
  if (typeof completers !== "object" || completers === null) throw new TypeError(`${label}: complete must be an object of functions`);
  for (const [name, completer] of Object.entries(completers)) {
    if (typeof completer !== "function") throw new TypeError(`${label}: complete.${name} must be a function`);
    if (!allowed.includes(name)) throw new TypeError(`${label}: complete.${name} names no declared argument (known: ${allowed.join(", ") || "none"})`);
  }
  return completers as Record<string, Completer>;
}
