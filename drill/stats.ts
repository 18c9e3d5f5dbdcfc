// Each instance's resident memory and open handles, asked directly (not
// through nginx) with the `drill_stats` tool, which runs a GC first.

/** One instance's figures. */
export interface InstanceStats {
  name: string;
  pid: number;
  rss: number;
  heap: number;
  handles: number;
}

/** Asks the instance on `port` for its figures; `undefined` when it does not answer. */
export async function instanceStats(port: number): Promise<InstanceStats | undefined> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "drill_stats",
      arguments: {},
      _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
    },
  });
  try {
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: "POST",
      body,
      signal: AbortSignal.timeout(5_000),
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "drill_stats",
      },
    });
    const message = (await response.json()) as { result?: { content?: { text?: string }[] } };
    return JSON.parse(message.result?.content?.[0]?.text ?? "") as InstanceStats;
  } catch {
    return undefined;
  }
}

/** The margin an instance's figures must be back within after the run, against its warm-up figures. */
export const MARGIN = { rssFactor: 1.5, rssExtraBytes: 32 * 1024 * 1024, extraHandles: 8 };

/** Whether `after` is within {@link MARGIN} of `warm`. */
export function withinMargin(warm: InstanceStats, after: InstanceStats): boolean {
  return after.rss <= warm.rss * MARGIN.rssFactor + MARGIN.rssExtraBytes && after.handles <= warm.handles + MARGIN.extraHandles;
}
