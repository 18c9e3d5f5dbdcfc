/**
 * `callTool`'s output check, loaded on the first tool result it judges: the
 * tool's `outputSchema` comes from the last `tools/list` the client saw
 * (every page of it, fetched once when the client has none, again after
 * `notifications/tools/list_changed`), and `structuredContent` is checked
 * against it by the eval-free `@cfworker/json-schema`, itself loaded only
 * when some tool declares an `outputSchema`.
 *
 * Imports nothing the client's main modules import, so a splitting bundler
 * keeps it in a chunk of its own (docs/internals.md).
 *
 * @internal
 * @module
 */
import type { Validator } from "@cfworker/json-schema";
import { leafIssues } from "../validate/output-units.js";
import type { ValidationIssue } from "../validate/issues.js";
import { walkPages } from "./page-walk.js";
import type { JsonObject } from "./protocol.js";
import type { ClientSession } from "./session.js";
import type { ToolOutputInvalid } from "./check-errors.js";
import { toolOutputMessage } from "./check-messages.js";

/** A tool's output check: its validator, or `null` for a tool without an `outputSchema`. */
type OutputCheck = Validator | null;

/** What a client knows of its server's tools, shared by its calls. @internal */
export interface ToolOutputState {
  /** `checkToolOutputs` of `Client.connect` (default true); a call's `checkOutput` overrides it. */
  readonly enabled: boolean;
  /** Every tool's check, from the last complete `tools/list`; `undefined` until fetched, and again after `list_changed`. */
  catalog: Promise<Map<string, OutputCheck>> | undefined;
}

/** The `notifications/tools/list_changed` method, whose arrival makes the client list the tools again. @internal */
export const TOOLS_LIST_CHANGED = "notifications/tools/list_changed";

/** JSON-RPC "method not found": a server that lists no tools, whose results are then not checked. */
const METHOD_NOT_FOUND = -32601;

/**
 * Checks a complete, successful `tools/call` result of `name` against the
 * tool's `outputSchema`, listing the tools first when the client has no list.
 *
 * @returns `result`, unchanged, when it fits (or the tool declares no `outputSchema`, or is not listed).
 * @throws ToolOutputInvalid naming each problem; what `tools/list` throws (but `-32601`).
 * @internal
 */
export async function checkToolOutput(
  // The caller's class, handed over: importing it here would split it out of the client's main chunk (docs/internals.md).
  Invalid: typeof ToolOutputInvalid,
  state: ToolOutputState,
  session: ClientSession,
  name: string,
  result: JsonObject,
  signal: AbortSignal | undefined,
): Promise<JsonObject> {
  const listedBefore = state.catalog !== undefined;
  // Only structuredContent can lie about the schema: a result without it is judged only against a list already fetched.
  if (result.structuredContent === undefined && !listedBefore) return result;
  let listing = catalogOf(state, session, signal);
  let issues = issuesOf((await listing).get(name), result);
  if (issues.length > 0 && listedBefore && state.catalog === listing && !relisted.has(listing)) {
    // A list that may have gone stale unheard (no subscription, or a 2025 server's notification nobody listened
    // for) is fetched again once before the result is refused: a misfit may cost one listing, a fit nothing.
    state.catalog = undefined;
    listing = catalogOf(state, session, signal);
    relisted.add(listing);
    issues = issuesOf((await listing).get(name), result);
  }
  if (issues.length > 0) throw new Invalid(toolOutputMessage(name, issues), name, issues, result);
  return result;
}

/** Listings fetched again for a misfit: the next misfit is refused on them without listing again. */
const relisted = new WeakSet<Promise<Map<string, OutputCheck>>>();

function catalogOf(state: ToolOutputState, session: ClientSession, signal: AbortSignal | undefined): Promise<Map<string, OutputCheck>> {
  if (state.catalog !== undefined) return state.catalog;
  const listing = listTools(session, signal);
  state.catalog = listing;
  // A failed listing is not kept: the next call lists again.
  listing.catch(() => {
    if (state.catalog === listing) state.catalog = undefined;
  });
  return listing;
}

async function listTools(session: ClientSession, signal: AbortSignal | undefined): Promise<Map<string, OutputCheck>> {
  const catalog = new Map<string, OutputCheck>();
  let ValidatorClass: typeof Validator | undefined;
  try {
    for await (const tool of walkPages<JsonObject>(session, "tools/list", "tools", signal === undefined ? undefined : { signal })) {
      const schema = tool.outputSchema;
      if (typeof tool.name !== "string") continue;
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
        catalog.set(tool.name, null);
        continue;
      }
      // Eval-free, so it runs wherever the client does (a browser page, a worker).
      ValidatorClass ??= (await import("@cfworker/json-schema")).Validator;
      catalog.set(tool.name, new ValidatorClass(schema as never, draftOf(schema as JsonObject), false));
    }
  } catch (error) {
    // By code, not instanceof: importing McpError here would split it off the browser entry chunk.
    if ((error as { code?: unknown } | null)?.code === METHOD_NOT_FOUND) return catalog;
    throw error;
  }
  return catalog;
}

/** The draft a tool's `outputSchema` names with `$schema`; 2020-12 when it names none (MCP's default). */
function draftOf(schema: JsonObject): "7" | "2019-09" | "2020-12" {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  if (/draft-0[67]\//.test(declared)) return "7";
  if (declared.includes("draft/2019-09")) return "2019-09";
  return "2020-12";
}

function issuesOf(check: OutputCheck | undefined, result: JsonObject): ValidationIssue[] {
  if (check === undefined || check === null) return [];
  const content = result.structuredContent;
  if (content === undefined) return [{ path: "", message: "is missing: a tool with an outputSchema must return structuredContent" }];
  const outcome = check.validate(content);
  if (outcome.valid) return [];
  const issues = leafIssues(outcome.errors);
  return issues.length > 0 ? issues : [{ path: "", message: "does not fit the outputSchema" }];
}
