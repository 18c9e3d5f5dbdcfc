/**
 * The recovery when a server wants `Mcp-Param-*` headers for a tool this
 * client never listed (2026-07-28 streamable-http): list the tools again,
 * then send the call once more. Loaded on the first `-32020` to a call.
 *
 * @internal
 * @module
 */
import type { JsonRpcRequest, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";

/** Pages listed at most while looking for the called tool. */
const MAX_TOOL_PAGES = 20;

/**
 * Lists the tools again (with `call`'s `_meta`), page by page (the
 * transport learns each page's annotations on the way back), and sends
 * `call` once more when its tool is now known; else returns `refused`.
 *
 * @param send - sends a request; `own` says it is the call itself (with its own options), not a listing
 * @internal
 */
export async function recover(
  tools: { knows(name: string): boolean },
  call: JsonRpcRequest,
  refused: JsonRpcResponse,
  send: (message: JsonRpcRequest, own: boolean) => Promise<JsonRpcResponse>,
): Promise<JsonRpcResponse> {
  const meta = call.params?._meta;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const params: Record<string, unknown> = {};
    if (typeof meta === "object" && meta !== null) params._meta = meta;
    if (cursor) params.cursor = cursor;
    const listed = await send({ jsonrpc: "2.0", id: `${String(call.id)}:tools-refresh:${page}`, method: "tools/list", params }, false);
    if (!("result" in listed)) return refused;
    const next = listed.result.nextCursor;
    if (typeof next !== "string" || next === "") break;
    cursor = next;
  }
  return tools.knows(String(call.params?.name)) ? send({ ...call }, true) : refused;
}
