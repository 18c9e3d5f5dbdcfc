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
import type { JsonRpcRequest, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import type { ParamHeader } from "../../../protocol/param-headers.js";
import { encodeHeaderValue } from "../../../protocol/headers.js";
import { isObject } from "../../../protocol/guards.js";
import { JsonRpcErrorCode } from "../../../protocol/jsonrpc/errors.js";

type Scanner = typeof import("./tool-scan.js");

/** A listed tool without annotations. */
const NONE: readonly ParamHeader[] = Object.freeze([]);

/** Pages of `tools/list` read when learning a tool's annotations after a `-32020`. */
const MAX_TOOL_PAGES = 20;

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

  /**
   * A `tools/call` refused with -32020 for a tool never listed (the server
   * expects `Mcp-Param-*` headers): learns its schema with `tools/list`, then
   * sends the call once more (the spec's recovery path). Any other answer is
   * returned as it is.
   *
   * @param send - sends a request; `own` says it is the call itself (with its own options), not a listing
   */
  async recover(
    call: JsonRpcRequest,
    response: JsonRpcResponse,
    send: (message: JsonRpcRequest, own: boolean) => Promise<JsonRpcResponse>,
  ): Promise<JsonRpcResponse> {
    const code = (response as { error?: { code?: unknown } }).error?.code;
    if (call.method !== "tools/call" || code !== JsonRpcErrorCode.HeaderMismatch || this.knows(String(call.params?.name))) return response;
    const list = (params: Record<string, unknown>, page: number) =>
      send({ jsonrpc: "2.0", id: `${String(call.id)}:tools-refresh:${page}`, method: "tools/list", params }, false);
    return (await this.refresh(call, list)) ? send({ ...call }, true) : response;
  }

  /**
   * Lists the tools again (with `call`'s `_meta`), page by page through
   * `list`, after the server wanted `Mcp-Param-*` headers for a tool this
   * client never listed (2026-07-28 streamable-http: the recovery path).
   *
   * @returns true when the called tool is now known, so the call is worth retrying.
   */
  async refresh(call: JsonRpcRequest, list: (params: Record<string, unknown>, page: number) => Promise<JsonRpcResponse>): Promise<boolean> {
    const meta = call.params?._meta;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const params: Record<string, unknown> = {};
      if (isObject(meta)) params._meta = meta;
      if (cursor) params.cursor = cursor;
      const listed = await list(params, page);
      // The exchange learned the page's annotations on its way back.
      if (!("result" in listed)) return false;
      const next = listed.result.nextCursor;
      if (typeof next !== "string" || next === "") break;
      cursor = next;
    }
    return this.knows(String(call.params?.name));
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
