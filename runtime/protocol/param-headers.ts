/**
 * The `x-mcp-header` rules for tool parameters (2026-07-28 streamable-http,
 * "Custom Headers"): which argument of a tool a header mirrors, the header's
 * value for a call, and whether the headers of a call match its body. The
 * server checks them at registration and on each call; the client learns
 * them from `tools/list` (lazily: most tools declare none).
 *
 * @module
 */
// No import of the rest of the floor: the browser client loads this module lazily, and a module it shared with
// the client's entry chunk (headers.ts, guards.ts) would be split off that chunk into one of its own.

/** RFC 9110 `tchar`: the characters allowed in a header field name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** One `x-mcp-header` annotation: where the value lives and which header carries it. */
export interface ParamHeader {
  /** The `Name` in `Mcp-Param-{Name}`, as the schema spells it. */
  header: string;
  /** The chain of `properties` keys from the schema root to the parameter. */
  path: string[];
  /** The parameter's JSON Schema type: only these three may be mirrored. */
  type: "string" | "integer" | "boolean";
}

/** Outcome of {@link paramHeadersOf}: the annotations, or why the tool is invalid. */
export type ParamHeaderScan =
  | {
      /** The schema's header annotations are valid. */
      ok: true;
      /** The `Mcp-Param-*` headers the tool's calls carry, one per annotated argument. */
      headers: ParamHeader[];
    }
  | {
      /** The annotations break a rule, so the tool cannot be registered. */
      ok: false;
      /** Which rule, in words fit for the registration error. */
      reason: string;
    };

const COMPOSITION_KEYS = [
  "items",
  "prefixItems",
  "additionalProperties",
  "patternProperties",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "definitions",
  "dependentSchemas",
  "contains",
];

/**
 * Collects the `x-mcp-header` annotations of a tool's `inputSchema` and
 * checks every rule the spec puts on them (non-empty token, case-insensitive
 * uniqueness, primitive non-number type, reachable through `properties` only).
 * A tool with any broken annotation must be dropped from `tools/list` by
 * HTTP clients.
 */
export function paramHeadersOf(inputSchema: unknown): ParamHeaderScan {
  const headers: ParamHeader[] = [];
  const seen = new Set<string>();
  let failure: string | undefined;

  const visit = (schema: unknown, path: string[], reachable: boolean): void => {
    if (failure || typeof schema !== "object" || schema === null) return;
    if (Array.isArray(schema)) {
      for (const entry of schema) visit(entry, path, false);
      return;
    }
    const node = schema as Record<string, unknown>;
    if ("x-mcp-header" in node) {
      const header = node["x-mcp-header"];
      const where = path.join(".") || "(root)";
      if (!reachable || path.length === 0) {
        failure = `x-mcp-header on ${where} is not reachable through properties alone`;
        return;
      }
      if (typeof header !== "string" || header.length === 0) {
        failure = `x-mcp-header on ${where} must be a non-empty string`;
        return;
      }
      if (!TOKEN.test(header)) {
        failure = `x-mcp-header "${header}" on ${where} is not a valid HTTP header token`;
        return;
      }
      const type = node.type;
      if (type !== "string" && type !== "integer" && type !== "boolean") {
        failure = `x-mcp-header "${header}" on ${where} must annotate a string, integer or boolean parameter`;
        return;
      }
      const key = header.toLowerCase();
      if (seen.has(key)) {
        failure = `x-mcp-header "${header}" is declared more than once (names are case-insensitive)`;
        return;
      }
      seen.add(key);
      headers.push({ header, path: [...path], type });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties" && typeof value === "object" && value !== null && !Array.isArray(value)) {
        for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
          visit(child, [...path, name], reachable);
        }
      } else if (COMPOSITION_KEYS.includes(key) || key === "$ref") {
        visit(value, path, false);
      } else if (typeof value === "object" && value !== null && key !== "x-mcp-header") {
        visit(value, path, false);
      }
    }
  };

  visit(inputSchema, [], true);
  return failure ? { ok: false, reason: failure } : { ok: true, headers };
}
