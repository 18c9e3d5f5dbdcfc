// Issue 36, item 7 (low): client-supplied text in log lines. A 2025 client's clientInfo.name, a field
// name in an elicitation answer, a tool name: whatever a client chose reaches log messages, and with
// raw newlines it could forge lines in the console logger. Every control character (C0, DEL, C1, and
// the Unicode line and paragraph separators) in a message or a field is written as an escape.
import { afterEach, describe, expect, it } from "vitest";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { createLogger, McpServer } from "mcp-roundtrip/server";
import { RequestStateSecurity } from "mcp-roundtrip/state";
import { POST_HEADERS } from "../transport/session-wire.js";

type Line = { level: string; message: string; fields: Record<string, unknown> | undefined };

function capture() {
  const lines: Line[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push({ level, message, fields });
  return { lines, sink: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } };
}

/** No character that could end a line, or start a forged one, in what the sink received. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const RAW = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const FORGED = "evil\n[warn] forged line\r\u001b[2K\u2028more";

const handles: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.close({ graceMs: 0 })));
});

describe("client-supplied text in log lines", () => {
  it("escapes a 2025 client's clientInfo.name in the session-opened line", async () => {
    const { lines, sink } = capture();
    const mcp = new McpServer({ name: "log-injection", version: "1.0.0" }, { logger: sink, logLevel: "debug" });
    const http = await serveHttp(mcp);
    handles.push(http);
    const response = await fetch(http.url, {
      method: "POST",
      headers: POST_HEADERS,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: FORGED, version: "1\n2" } },
      }),
    });
    expect(response.status).toBe(200);
    const opened = lines.find((line) => line.message.includes(" opened: "));
    expect(opened?.message).toContain("evil\\n[warn] forged line\\r\\u001b[2K\\u2028more 1\\n2");
    expect(opened?.fields?.client).toBe("evil\\n[warn] forged line\\r\\u001b[2K\\u2028more");
    for (const line of lines) {
      expect(line.message).not.toMatch(RAW);
      for (const value of Object.values(line.fields ?? {})) if (typeof value === "string") expect(value).not.toMatch(RAW);
    }
  });

  it("escapes what a refused requestState's log line quotes of the request (a tool name)", async () => {
    const { lines, sink } = capture();
    const security = RequestStateSecurity.ephemeral({ logger: sink, audience: "log-injection" });
    const target = "deploy\u2028[warn] forged\nline";
    await expect(security.verify("v1.AAAA", { method: "tools/call", target, arguments: {} })).rejects.toThrow();
    const warned = lines.filter((line) => line.level === "warn");
    expect(warned.length).toBe(1);
    expect(warned[0]!.message).not.toMatch(RAW);
    expect(warned[0]!.message).toContain("deploy\\u2028[warn] forged\\nline");
    expect(warned[0]!.fields?.target).toBe("deploy\\u2028[warn] forged\\nline");
  });

  it("leaves text without control characters as it is, and escapes strings inside array fields", () => {
    const { lines, sink } = capture();
    const log = createLogger(sink, "debug");
    log.debug("asked again", { tool: "deploy", inputKeys: ["region", "a\nb"], round: 2 });
    log.warn(`answer for ${JSON.stringify("key")} had field ${"x\ny"}`);
    expect(lines).toEqual([
      { level: "debug", message: "asked again", fields: { tool: "deploy", inputKeys: ["region", "a\\nb"], round: 2 } },
      { level: "warn", message: 'answer for "key" had field x\\ny', fields: undefined },
    ]);
  });
});
