import { isObject, refName, type SchemaNode } from "./json.js";
import type { MethodEntry } from "./model.js";

/**
 * Input-request kinds, derived from the schema: which requests a server may
 * put in an `InputRequiredResult` (or, in the handshake era, send over its
 * back-channel), and the client capability each needs. The runtime reads the
 * emitted table instead of a hand-kept list of methods, so a revision that
 * adds a kind (and the capability that gates it) is served with no edit.
 *
 * @module
 */

/**
 * A rule that names a sub-capability one particular request needs, beyond
 * its kind's capability (`elicitation.url` for a URL-mode elicitation).
 * Data, evaluated by the runtime against the request's params.
 */
type CapabilityRule =
  /** Needs `<capability>.<value of params[param]>` (one of `values`), or `<capability>.<fallback>` when the param is absent. */
  | { readonly kind: "discriminator"; readonly param: string; readonly values: readonly string[]; readonly fallback: string }
  /** Needs `<capability>.<sub>` when any of `params` is present (an array: non-empty). */
  | { readonly kind: "present"; readonly params: readonly string[]; readonly sub: string }
  /** Needs `<capability>.<sub>` when `params[param]` is one of `values`. */
  | { readonly kind: "oneOf"; readonly param: string; readonly values: readonly string[]; readonly sub: string };

/** One input-request kind of a revision. */
export interface InputKindEntry {
  readonly method: string;
  readonly request: string;
  readonly params: string | null;
  readonly result: string;
  /** The `ClientCapabilities` member a client declares to be asked this kind. */
  readonly capability: string;
  readonly rules: readonly CapabilityRule[];
}

/**
 * Requests of the handshake era's back-channel that the SDK answers itself,
 * never a user's callback: `ping`, and the task methods (a client's task
 * store answers them). Every other back-channel request is an input kind.
 */
const ANSWERED_BY_THE_SDK = (method: string) => method === "ping" || method.startsWith("tasks/");

/**
 * Sub-capability rules the schema states only in prose (a capability's
 * description names the params it governs, not the values that need it).
 * Emitted for a revision only where its schema has both the sub-capability
 * and the param, so a revision that drops either drops the rule.
 */
const PROSE_RULES: Readonly<Record<string, readonly CapabilityRule[]>> = {
  "sampling/createMessage": [
    { kind: "present", params: ["tools", "toolChoice"], sub: "tools" },
    { kind: "oneOf", param: "includeContext", values: ["thisServer", "allServers"], sub: "context" },
  ],
};

/** The properties a params definition (or each member of a params union) declares. */
function paramsMembers(defs: Record<string, SchemaNode>, params: string | null): SchemaNode[] {
  if (params === null) return [];
  const def = defs[params];
  if (!def) return [];
  if (Array.isArray(def.anyOf)) return def.anyOf.map((branch) => defs[refName(branch) ?? ""]).filter((member): member is SchemaNode => !!member);
  return [def];
}

function propertiesOf(node: SchemaNode): Record<string, SchemaNode> {
  return isObject(node.properties) ? (node.properties as Record<string, SchemaNode>) : {};
}

/**
 * A params property whose constant, in every member of a params union,
 * names a sub-capability (elicitation's `mode`: `form` | `url`): the request
 * needs the sub-capability its value names, and the member that leaves the
 * property optional gives the value of a request without it.
 */
function discriminatorRule(members: SchemaNode[], subs: string[]): CapabilityRule | undefined {
  if (members.length < 2 || subs.length === 0) return undefined;
  const candidates = Object.keys(propertiesOf(members[0]!));
  for (const param of candidates) {
    const constants = members.map((member) => propertiesOf(member)[param]?.const);
    if (!constants.every((value): value is string => typeof value === "string" && subs.includes(value))) continue;
    const optional = members.filter((member) => !(Array.isArray(member.required) && member.required.includes(param)));
    if (optional.length !== 1) continue;
    return { kind: "discriminator", param, values: constants, fallback: propertiesOf(optional[0]!)[param]!.const as string };
  }
  return undefined;
}

function hasParam(members: SchemaNode[], param: string): boolean {
  return members.some((member) => Object.hasOwn(propertiesOf(member), param));
}

/** The sub-capability rules of one kind: derived from the schema, plus the prose ones that still fit it. */
function rulesOf(defs: Record<string, SchemaNode>, entry: MethodEntry, capability: SchemaNode): CapabilityRule[] {
  const subs = Object.keys(propertiesOf(capability));
  const members = paramsMembers(defs, entry.params);
  const rules: CapabilityRule[] = [];
  const discriminator = discriminatorRule(members, subs);
  if (discriminator) rules.push(discriminator);
  for (const rule of PROSE_RULES[entry.method] ?? []) {
    if (rule.kind === "discriminator" || !subs.includes(rule.sub)) continue;
    const params = rule.kind === "present" ? rule.params : [rule.param];
    if (params.every((param) => hasParam(members, param))) rules.push(rule);
  }
  return rules;
}

/**
 * The input-request kinds of one revision: the `InputRequest` union's
 * members (per-request-envelope revisions), or the back-channel requests a
 * user's callback answers (handshake era). Each kind's capability is the
 * `ClientCapabilities` member named by its method's first segment
 * (`confirmation/create` → `confirmation`), the convention every kind so far
 * follows.
 *
 * @throws Error naming the method when no `ClientCapabilities` member matches,
 *   so a kind never reaches the runtime without the capability that gates it.
 */
export function inputKindsOf(defs: Record<string, SchemaNode>, methods: MethodEntry[], hasInputRequired: boolean): InputKindEntry[] {
  const direction = hasInputRequired ? "input" : "server";
  const capabilities = propertiesOf(defs.ClientCapabilities ?? {});
  const kinds: InputKindEntry[] = [];
  for (const entry of methods) {
    if (entry.direction !== direction || ANSWERED_BY_THE_SDK(entry.method)) continue;
    const capability = entry.method.split("/")[0]!;
    const declared = capabilities[capability];
    if (!isObject(declared) || capability === "experimental" || capability === "extensions") {
      throw new Error(
        `codegen: the input request ${entry.method} (${entry.request}) has no client capability: ClientCapabilities has no member "${capability}". ` +
          "A kind's capability is the ClientCapabilities member named by its method's first segment; if the schema gates it otherwise, teach codegen/input-kinds.ts the rule.",
      );
    }
    kinds.push({ method: entry.method, request: entry.request, params: entry.params, result: entry.result, capability, rules: rulesOf(defs, entry, declared) });
  }
  return kinds;
}
