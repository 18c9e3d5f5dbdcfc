// Start-up cost: AJV and noble's AES load only when a program takes the path
// that needs them, and a runtime that can load them only asynchronously (no
// process.getBuiltinModule: older Node, browsers, edge) still works end to end.
// Runs the built package in child processes, so each starts with nothing loaded.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";

function runNode(source: string): Record<string, unknown> {
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", source], { cwd: root, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`node exited ${run.status}:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
}

/** A server with a schemaless tool and an MRTR tool taking one typed argument, and a connected client. */
const SCENARIO = `
  const { McpServer, RequestStateSecurity, inputRequired } = await import("mcp-roundtrip/server");
  const { Client, MODERN_PROTOCOL_VERSION } = await import("mcp-roundtrip/client");
  const server = new McpServer({ name: "lazy-probe", version: "1.0.0" });
  server.tool("plain", {}, () => ({ content: [{ type: "text", text: "plain" }] }));
  const confirm = (schema) => (args, ctx) => {
    if (ctx.inputResponses?.ok?.action !== "accept") {
      return inputRequired({
        inputRequests: { ok: { method: "elicitation/create", params: { mode: "form", message: "ok?", requestedSchema: { type: "object", properties: {} } } } },
        requestState: JSON.stringify(args),
      });
    }
    return { content: [{ type: "text", text: "confirmed " + JSON.parse(ctx.requestState).text }] };
  };
  server.tool("confirm", { inputSchema: { type: "object", properties: { text: { type: "string", description: "what to confirm" } }, required: ["text"] } }, confirm());
  const client = await Client.connect(server, { mode: MODERN_PROTOCOL_VERSION, onElicit: async () => ({ action: "accept", content: {} }) });
  const textOf = (result) => result.content?.[0]?.text;
`;

/**
 * Which of AJV / noble the process has loaded: CommonJS and require(esm) land in
 * require.cache; a resolve hook (off-thread on Node 20, hence the file) logs ES imports.
 */
function loadedProbe(log: string): string {
  const hook = [
    'import { appendFileSync } from "node:fs";',
    "export async function resolve(specifier, context, next) {",
    "  const result = await next(specifier, context);",
    `  appendFileSync(${JSON.stringify(log)}, result.url + "\\n");`,
    "  return result;",
    "}",
  ].join("\n");
  return `
    const { createRequire, register } = await import("node:module");
    const { readFileSync, writeFileSync } = await import("node:fs");
    writeFileSync(${JSON.stringify(log)}, "");
    register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}));
    const cache = createRequire(import.meta.url).cache;
    const loaded = () => {
      const paths = [...Object.keys(cache), ...readFileSync(${JSON.stringify(log)}, "utf8").split("\\n")];
      return {
        ajv: paths.some((path) => path.includes("/node_modules/ajv/")),
        noble: paths.some((path) => path.includes("/node_modules/@noble/")),
      };
    };
  `;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mcp-roundtrip-lazy-"));
  ensureBuilt("runtime/entries/server.js");
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("heavy dependencies load on first use", () => {
  it("a server and client sealing with node:crypto, with simple typed schemas, load neither AJV nor noble", () => {
    const out = runNode(`${loadedProbe(join(dir, "resolved.txt"))}${SCENARIO}
      const afterCall = textOf(await client.callTool("confirm", { text: "hi" }));
      const before = loaded();
      let registrationError = "";
      try {
        server.tool("bad", { inputSchema: { type: "object", properties: { x: { type: "nonsense" } } } }, () => ({ content: [] }));
      } catch (error) {
        registrationError = error.constructor.name + ": " + error.message;
      }
      const afterSchema = loaded();
      const noble = new RequestStateSecurity({ keys: ["k".repeat(32)] }, { crypto: "noble", audience: "a" });
      const node = new RequestStateSecurity({ keys: ["k".repeat(32)] }, { crypto: "node", audience: "a" });
      const binding = { method: "tools/call", target: "t", arguments: { n: 1 } };
      const crossed = await node.verify(await noble.mint({ ...binding, state: "s" }), binding);
      console.log(JSON.stringify({ afterCall, before, registrationError, afterSchema, crossed, afterNoble: loaded(), crypto: RequestStateSecurity.ephemeral().crypto }));
      await client.close();`);
    expect(out.afterCall).toBe("confirmed hi");
    expect(out.crypto).toBe("node");
    expect(out.before).toEqual({ ajv: false, noble: false });
    // A schema AJV rejects still fails at registration, with the same message as ever.
    expect(out.registrationError).toMatch(/^TypeError: inputSchema of tool "bad" is not a valid JSON Schema: /);
    expect(out.afterSchema).toEqual({ ajv: true, noble: false });
    expect(out.crossed).toBe("s");
    expect(out.afterNoble).toEqual({ ajv: true, noble: true });
  });

  it("without process.getBuiltinModule, seals with noble and compiles schemas on first use", () => {
    const out = runNode(`
      delete process.getBuiltinModule;
      ${SCENARIO}
      server.tool("typed", { inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } }, ({ n }) => ({ content: [{ type: "text", text: String(n + 1) }] }));
      server.tool("bad", { inputSchema: { type: "object", properties: { x: { type: "nonsense" } } } }, () => ({ content: [] }));
      const security = RequestStateSecurity.ephemeral({ audience: "a" });
      const sealed = security.codec.seal(new Uint8Array([1, 2, 3]));
      const mrtr = textOf(await client.callTool("confirm", { text: "hi" }));
      const typed = textOf(await client.callTool("typed", { n: 41 }));
      const wrong = await client.callTool("typed", { n: "x" });
      let bad = "";
      const quiet = console.error;
      console.error = () => {};
      try {
        await client.callTool("bad", {});
      } catch (error) {
        bad = String(error.code);
      }
      console.error = quiet;
      console.log(JSON.stringify({
        crypto: security.crypto,
        sealedIsPromise: sealed instanceof Promise,
        opened: Array.from(await security.codec.unseal(await sealed)),
        mrtr, typed, wrong: { isError: wrong.isError, text: textOf(wrong) }, bad,
      }));
      await client.close();`);
    expect(out.crypto).toBe("noble");
    expect(out.sealedIsPromise).toBe(true);
    expect(out.opened).toEqual([1, 2, 3]);
    expect(out.mrtr).toBe("confirmed hi");
    expect(out.typed).toBe("42");
    expect(out.wrong).toEqual({ isError: true, text: "Invalid arguments for tool typed: /n must be integer" });
    // The schema AJV rejects can only show once AJV is there: the call fails closed.
    expect(out.bad).toBe("-32603");
  });
});
