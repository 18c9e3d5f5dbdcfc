// A scratch agent host, written from README.md and docs/client.md alone, the
// way a newcomer would: it connects to one MCP server (a URL, or a command to
// spawn after `--`), lists its tools, runs one, answers the server's
// questions, and prints one line saying how it ended. The same code for every
// server, whichever protocol generation it speaks. test/package/agent-host.test.ts
// runs this file unedited from a project that installed the packed tarball.
//
//   node host.mjs [options] <url>
//   node host.mjs [options] -- <command> [args...]
//
//   --tool <name>         the tool to run (without it: list the tools and stop)
//   --args <json>         the tool's arguments (default {})
//   --elicit <answer>     how questions are answered: JSON content to accept with, "decline", or "throw" (a broken dialog)
//   --timeout <ms>        timeoutMs for every request, the handshake's included (default: the client's 60 s)
//   --cancel-after <ms>   abort the call after this long; Ctrl-C (SIGINT) aborts it too
//   --mode <version>      pin a protocol version, e.g. 2025-11-25 (default: auto)
//
// The last line on stdout is `outcome: <what> [key=value...]`; the exit code
// says the same: 0 ok, 3 RequestTimeout, 4 ConnectionLost, 5 InputRequestFailed,
// 6 InputResponseInvalid, 7 McpError, 8 a tool error (isError), 9 another
// documented client error, 130 cancelled, 1 a bug in this host.
import { parseArgs } from "node:util";
import {
  Client,
  ConnectionLost,
  HttpTransportError,
  InputRequestFailed,
  InputRequiredRoundsExceeded,
  InputResponseInvalid,
  InvalidServerResult,
  McpError,
  RequestTimeout,
  SessionExpired,
  ToolOutputInvalid,
} from "mcp-roundtrip/client";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    tool: { type: "string" },
    args: { type: "string", default: "{}" },
    elicit: { type: "string", default: "decline" },
    timeout: { type: "string" },
    "cancel-after": { type: "string" },
    mode: { type: "string", default: "auto" },
  },
});
if (positionals.length === 0) {
  console.error("usage: node host.mjs [options] <url> | -- <command> [args...]");
  process.exit(2);
}
// A URL connects over Streamable HTTP; anything else is a command to spawn over stdio.
const target = /^https?:\/\//.test(positionals[0]) ? positionals[0] : { command: positionals[0], args: positionals.slice(1) };

/** Prints the outcome line and sets the exit code; the process then ends on its own once the client is closed. */
function outcome(code, what, fields = {}) {
  const details = Object.entries(fields).map(([key, value]) => ` ${key}=${value}`);
  console.log(`outcome: ${what}${details.join("")}`);
  process.exitCode = code;
}

// One controller for the whole run: Ctrl-C, or --cancel-after, stops whatever is in flight, the connection attempt included.
const controller = new AbortController();
process.once("SIGINT", () => controller.abort());
const cancelTimer = values["cancel-after"] === undefined ? undefined : setTimeout(() => controller.abort(), Number(values["cancel-after"]));

/** The elicitation answer --elicit scripts: what a dialog would return, or a dialog that fails. */
async function onElicit(params) {
  console.log(`asked: ${params.message}`);
  if (values.elicit === "throw") throw new Error("the dialog crashed");
  if (values.elicit === "decline") return { action: "decline" };
  return { action: "accept", content: JSON.parse(values.elicit) };
}

let client;
try {
  client = await Client.connect(target, {
    clientInfo: { name: "scratch-agent-host", version: "0.0.0" },
    mode: values.mode,
    onElicit,
    signal: controller.signal,
    ...(values.timeout === undefined ? {} : { timeoutMs: Number(values.timeout) }),
  });
  console.log(`connected: ${client.protocolVersion}`);
  const tools = await client.listAllTools();
  console.log(`tools: ${tools.map((tool) => tool.name).join(", ")}`);
  if (values.tool === undefined) {
    outcome(0, "ok");
  } else {
    let progressShown = false;
    const result = await client.callTool(values.tool, JSON.parse(values.args), {
      signal: controller.signal,
      onProgress: ({ progress, total }) => {
        if (progressShown) return;
        progressShown = true;
        console.log(`progress: ${progress} of ${total ?? "?"}`);
      },
    });
    const text = result.content.map((item) => (item.type === "text" ? item.text : `[${item.type}]`)).join(" ");
    console.log(`result: ${text}`);
    if (result.isError) outcome(8, "tool-error");
    else outcome(0, "ok");
  }
} catch (error) {
  // The call rejects with the signal's reason when we aborted it: that is no failure.
  if (controller.signal.aborted) outcome(130, "cancelled");
  else if (error instanceof RequestTimeout) outcome(3, "RequestTimeout", { method: error.method, elapsedMs: error.elapsedMs });
  else if (error instanceof ConnectionLost) outcome(4, "ConnectionLost", { method: error.method, retryable: error.retryable });
  else if (error instanceof InputRequestFailed) outcome(5, "InputRequestFailed", { method: error.method, serverResult: error.serverResult !== undefined });
  else if (error instanceof InputResponseInvalid) outcome(6, "InputResponseInvalid", { method: error.method, issues: error.issues.length });
  else if (error instanceof McpError) outcome(7, "McpError", { code: error.code });
  else if (
    error instanceof ToolOutputInvalid ||
    error instanceof InputRequiredRoundsExceeded ||
    error instanceof SessionExpired ||
    error instanceof HttpTransportError ||
    error instanceof InvalidServerResult
  )
    outcome(9, error.name);
  else {
    console.error(error);
    outcome(1, "bug");
  }
  if (process.exitCode !== 1) console.error(`host: ${error.message}`);
} finally {
  clearTimeout(cancelTimer);
  await client?.close();
}
