import type { ResolvedValue } from "./questions.js";
import type { Flatten } from "../schema/types/type-utils.js";

/**
 * Works out one dependency: from the tool's arguments and the dependencies
 * declared before it, return a plain value, or a question ({@link elicit}, {@link elicitUrl},
 * {@link sample}, {@link listRoots}) for the SDK to ask the client. May be
 * async.
 */
export type Resolver<A, R, V> = (args: A, resolved: R) => V | PromiseLike<V>;

/** One declared dependency. @internal */
export interface NeedEntry {
  readonly key: string;
  readonly resolve: (args: unknown, resolved: Record<string, unknown>) => unknown;
}

/**
 * The dependencies a tool declares, in order. Build it with {@link needs}
 * (or the `need` passed to a tool's `needs` function) and `.add(...)`; each
 * `add` returns a new declaration, so a partial one can be shared between
 * tools.
 *
 * Each key is also the input key the question goes out under, so it is the
 * same in every process and after every restart.
 *
 * @typeParam A - the tool's arguments (default: any JSON object).
 * @typeParam R - what the dependencies declared so far resolve to.
 */
export class Needs<A = Record<string, unknown>, R extends object = {}> {
  /** The dependencies in declaration order. @internal */
  readonly entries: readonly NeedEntry[];

  /** @internal Use {@link needs}. */
  constructor(entries: readonly NeedEntry[] = []) {
    this.entries = Object.freeze([...entries]);
  }

  /**
   * Declares one more dependency.
   *
   * @param key - names the value in the handler and is the input key on the wire; unique within the tool.
   * @param resolve - `(args, resolved) => value | question`, where `resolved` holds the dependencies declared before this one.
   *   It runs again on every round, so a question must render the same from the same arguments and answers
   *   (no clock or random text in it): a question that changes is asked again. Reading a dependency that is
   *   still unanswered ends the resolver for this round, so do not catch errors around such reads.
   * @throws TypeError when `key` is empty or already declared, or `resolve` is not a function.
   * @example
   * ```ts
   * needs<{ name: string }>()
   *   .add("region", () => elicit({ message: "Region?", schema: regionForm }))
   *   .add("label", (args, { region }) => region.action === "accept" ? `${args.name}@${region.content.region}` : args.name);
   * ```
   */
  add<const K extends string, V>(key: K extends keyof R ? never : K, resolve: Resolver<A, R, V>): Needs<A, Flatten<R & { readonly [P in K]: ResolvedValue<V> }>> {
    if (typeof key !== "string" || key === "") throw new TypeError("needs: a dependency key must be a non-empty string");
    // It would name the prototype, not a member, of every object the key lands in.
    if (key === "__proto__") throw new TypeError('needs: "__proto__" cannot be a dependency key; choose another name');
    if (this.entries.some((entry) => entry.key === key)) {
      throw new TypeError(`needs: "${key}" is declared twice; each dependency needs its own key`);
    }
    if (typeof resolve !== "function") throw new TypeError(`needs: the resolver for "${key}" must be a function (args, resolved) => value | question`);
    return new Needs([...this.entries, { key, resolve: resolve as NeedEntry["resolve"] }]);
  }
}

/**
 * Starts a dependency declaration for a tool whose arguments are `A`.
 *
 * @example
 * ```ts
 * const deployNeeds = needs<{ service: string }>()
 *   .add("confirm", (args) => elicit({ message: `Deploy ${args.service}?`, schema: confirmForm }));
 * ```
 */
export function needs<A = Record<string, unknown>>(): Needs<A, {}> {
  return new Needs<A, {}>();
}

/** What a `Needs` declaration resolves to in the handler. */
export type NeedsValues<N> = N extends Needs<any, infer R> ? R : never;
