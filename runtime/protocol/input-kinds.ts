/**
 * Input-request kinds as the runtime reads them: the generated registry
 * (generated/input-kinds.ts, one table per revision a client may speak) and
 * the one reading of its capability rules that both sides share, so the
 * server's -32021 check and the client's declaration can never disagree.
 * No list of methods lives here: a revision that adds a kind is served
 * through its generated table.
 *
 * @module
 */
import { type CapabilityRule, INPUT_KINDS_BY_REVISION, type InputKindDefinition, type InputKindMaps } from "../../generated/input-kinds.js";
import type { ServedModernRevision } from "../../generated/revisions.js";
import { isObject } from "./guards.js";
import { LEGACY_VERSIONS, MODERN_VERSIONS } from "./revisions.js";

export type { InputKindDefinition };

/** A revision a client may speak and its input kinds' types (the served modern ones and the handshake era's). */
type SpokenRevision = keyof InputKindMaps;

/** Every key of a union of objects (`keyof (A | B)` gives only the common ones). */
type KeysOfUnion<T> = T extends unknown ? keyof T : never;

/** The entry of `method` in whichever of `Maps` defines it, as a union over those that do. */
type EntryOf<Maps, Method extends PropertyKey> = Maps extends unknown ? (Method extends keyof Maps ? Maps[Method] : never) : never;

/** Method → `{ request, params, result }` across `Maps`: a method known to several revisions gets the union of their shapes. */
type MergedKinds<Maps> = { [Method in KeysOfUnion<Maps> & string]: EntryOf<Maps, Method> };

/**
 * The input kinds a server may ask of a client, across every modern revision
 * this package serves: method → `{ request, params, result }`. What
 * `inputRequired` and `ask` accept.
 */
export type ServedInputKinds = MergedKinds<InputKindMaps[ServedModernRevision & SpokenRevision]>;

/** A method of {@link ServedInputKinds}: an input-request kind some served revision defines. */
export type ServedInputKind = keyof ServedInputKinds & string;

/**
 * The input kinds a client may be asked, across every revision it may speak
 * (the served modern ones and the handshake era's): what `onInputRequest`'s
 * keys may be.
 */
export type SpokenInputKinds = MergedKinds<InputKindMaps[SpokenRevision]>;

/** A method of {@link SpokenInputKinds}. */
export type SpokenInputKind = keyof SpokenInputKinds & string;

const BY_REVISION: Readonly<Record<string, Readonly<Record<string, InputKindDefinition>>>> = INPUT_KINDS_BY_REVISION;

/**
 * The input kind `method` names in `revision`, or `undefined` when that
 * revision defines no such kind (or is not one a client may speak).
 * Own keys only: `"__proto__"` or `"toString"` name no kind.
 */
export function inputKindOf(revision: string, method: string): InputKindDefinition | undefined {
  const kinds = Object.hasOwn(BY_REVISION, revision) ? BY_REVISION[revision]! : undefined;
  return kinds !== undefined && Object.hasOwn(kinds, method) ? kinds[method] : undefined;
}

/**
 * The revision whose kind table a request of `version` is judged by: its
 * own, or for a handshake-era version without one (2025-06-18) the newest
 * handshake-era table, as the server judges such a session's requests; the
 * newest served revision's when the version is unknown or absent (a
 * low-level caller that passed none).
 */
function kindRevisionOf(version: string | undefined): string {
  if (version !== undefined && Object.hasOwn(BY_REVISION, version)) return version;
  return version !== undefined && LEGACY_VERSIONS.includes(version) ? LEGACY_VERSIONS[0]! : MODERN_VERSIONS[0]!;
}

/**
 * The input kind `method` names for a request of protocol `version` (the
 * request's `ctx.protocolVersion`): {@link inputKindOf} in the revision whose
 * table judges that version, `undefined` when that revision has no such kind.
 * Also returns the revision it looked in, for messages.
 */
export function inputKindFor(version: string | undefined, method: string): { revision: string; kind: InputKindDefinition | undefined } {
  const revision = kindRevisionOf(version);
  return { revision, kind: inputKindOf(revision, method) };
}

/**
 * The three earlier kinds' own options on an mcp-roundtrip `Client`, and the
 * kind each answers: the one place these methods are named (the server's
 * -32021 message and the client read it, so they agree). A kind a revision
 * adds needs no row: `onInputRequest` answers it.
 */
export const SUGAR_OPTIONS = Object.freeze({
  onElicit: "elicitation/create",
  onSample: "sampling/createMessage",
  onListRoots: "roots/list",
  // Each must be a kind of the generated registry: a revision that drops one fails to compile here.
} as const satisfies Readonly<Record<string, SpokenInputKind>>);

/** How `onInputRequest`'s entry for `method` is written in messages: `onInputRequest["confirmation/create"]`. */
export const inputRequestOption = (method: string): string => `onInputRequest[${JSON.stringify(method)}]`;

/**
 * The option of an mcp-roundtrip `Client` that answers input requests of
 * `method`: the named callback of a kind that has one, else the generic
 * `onInputRequest["<method>"]` every kind has.
 */
export function clientOptionFor(method: string): string {
  let option: keyof typeof SUGAR_OPTIONS;
  for (option in SUGAR_OPTIONS) if (SUGAR_OPTIONS[option] === method) return option;
  return inputRequestOption(method);
}

/** Every input kind's method in any revision a client may speak, sorted: for messages and for checking a callback map's keys. */
export function spokenInputKinds(): string[] {
  const methods = new Set<string>();
  for (const revision in BY_REVISION) for (const method in BY_REVISION[revision]) methods.add(method);
  return [...methods].sort();
}

/** The definition of `method` in the newest revision a client may speak that has it (the generated list is newest first). */
export function newestInputKind(method: string): InputKindDefinition | undefined {
  for (const revision in BY_REVISION) {
    const kind = inputKindOf(revision, method);
    if (kind !== undefined) return kind;
  }
  return undefined;
}

/** The sub-capability one rule asks of a request with these params, if any. */
function subOf(rule: CapabilityRule, params: Record<string, unknown>): string | undefined {
  switch (rule.kind) {
    case "discriminator": {
      const value = params[rule.param];
      return typeof value === "string" ? value : rule.fallback;
    }
    case "present":
      return rule.params.some((name) => (Array.isArray(params[name]) ? (params[name] as unknown[]).length > 0 : params[name] !== undefined)) ? rule.sub : undefined;
    case "oneOf":
      return rule.values.includes(params[rule.param] as string) ? rule.sub : undefined;
  }
}

/**
 * The sub-capabilities of `kind.capability` that one request needs, given
 * its params (`["url"]` for a URL-mode elicitation, `["tools"]` for sampling
 * that offers tools); empty when the capability alone is enough.
 */
export function subCapabilitiesNeeded(kind: InputKindDefinition, params: Record<string, unknown>): string[] {
  const subs: string[] = [];
  for (const rule of kind.rules) {
    const sub = subOf(rule, params);
    if (sub !== undefined && !subs.includes(sub)) subs.push(sub);
  }
  return subs;
}

/**
 * Whether `declared` (the client's `ClientCapabilities`) covers `sub` of
 * `kind.capability` (or the capability itself when `sub` is undefined).
 * A capability declared bare, with none of its sub-capabilities, covers a
 * discriminator's fallback: the spec's backwards-compatible reading of
 * `elicitation: {}` as form mode.
 */
export function declares(declared: Record<string, unknown>, kind: InputKindDefinition, sub?: string): boolean {
  const capability = declared[kind.capability];
  if (!isObject(capability)) return false;
  if (sub === undefined || isObject(capability[sub])) return true;
  return kind.rules.some((rule) => rule.kind === "discriminator" && rule.fallback === sub && rule.values.every((value) => capability[value] === undefined));
}

/**
 * What a client declares under `kind.capability` to be asked this kind's
 * requests that need no sub-capability: `{}`, with each discriminator's
 * fallback (`{ form: {} }` for elicitation, whose requests without `mode`
 * are forms). A request that needs more (URL mode, sampling with tools)
 * needs the client to declare it explicitly.
 */
export function baseDeclaration(kind: InputKindDefinition): Record<string, Record<string, never>> {
  const declaration: Record<string, Record<string, never>> = {};
  for (const rule of kind.rules) if (rule.kind === "discriminator") declaration[rule.fallback] = {};
  return declaration;
}
