/**
 * What the HTTP client remembers of the tools it has listed: each tool's
 * `x-mcp-header` annotations, mirrored into `Mcp-Param-*` headers on its
 * calls, and the spec's rule that a tool with an invalid annotation is
 * dropped from `tools/list` (2026-07-28 streamable-http, "Custom Headers").
 * The rules themselves (`tool-scan.ts`) load with the first `tools/list`
 * that mentions an annotation.
 *
 * @internal
 */
import type { ParamHeader } from "../../../protocol/param-headers.js";
import { encodeHeaderValue } from "../../../protocol/headers.js";
import { isObject } from "../../../protocol/guards.js";

type Scanner = typeof import("./tool-scan.js");

/** A listed tool without annotations. */
const NONE: readonly ParamHeader[] = Object.freeze([]);

/** @internal */
export class ToolHeaders {
  readonly #byTool = new Map<string, readonly ParamHeader[]>();
  /** The annotation rules, once a `tools/list` needed them; a tool with annotations is known only after they loaded. */
  #scanner: Scanner | undefined;
  readonly #warn: (message: string) => void;

  constructor(warn: (message: string) => void) {
    this.#warn = warn;
  }

  /** True once `name` was seen in a `tools/list` result. */
  knows(name: string): boolean {
    return this.#byTool.has(name);
  }

  /** Writes the `Mcp-Param-*` headers of a call to `name` with `args`. */
  write(name: string, args: unknown, headers: Record<string, string>): void {
    const params = this.#byTool.get(name);
    if (params !== undefined && params.length > 0) this.#scanner?.writeParamHeaders(params, args, headers, encodeHeaderValue);
  }

  /** Learns the annotations of a `tools/list` result, and removes from it the tools whose annotations are invalid. */
  async learn(result: Record<string, unknown>): Promise<void> {
    const tools = result.tools;
    if (!Array.isArray(tools)) return;
    // A page that names no annotation anywhere needs none of the rules: its tools are known, with no headers.
    if (this.#scanner === undefined && !JSON.stringify(tools).includes("x-mcp-header")) {
      for (const tool of tools) if (isObject(tool) && typeof tool.name === "string") this.#byTool.set(tool.name, NONE);
      return;
    }
    this.#scanner ??= await import("./tool-scan.js");
    result.tools = this.#scanner.learnTools(tools, this.#byTool, this.#warn);
  }
}
