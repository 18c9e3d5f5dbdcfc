// examples/worker in real workerd, through Miniflare: bundled with esbuild
// from the built package as a Workers project would bundle it (no
// nodejs_compat), then driven over HTTP by this process's Node client: a full
// multi-round tool call with sealed state (the token verifies on node:crypto
// with the same key), and the eval-free validator checking an inputSchema
// with a `pattern`, a `minimum` and nested arrays.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, isInputRequired } from "mcp-roundtrip/client";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/http/node";
import { RequestStateSecurity, decodeKeyEntry } from "mcp-roundtrip/server";
import { createFlightDesk } from "../../examples/worker/flight-desk.js";
import { ensureBuilt, root } from "../client/ensure-built.js";
import { node22, startServer, type RuntimeServer } from "../support/runtimes.js";

/** A fixed test key (never a real one): 32 bytes, base64url. */
const KEY = "base64url:d29ya2VyZC10ZXN0LWtleS13b3JrZXJkLXRlc3Qta2V5LTEyMzQ";
/** The newest date the pinned workerd (1.20260730) supports, give or take. */
const COMPATIBILITY_DATE = "2026-07-01";
const ARGS = { code: "ABC-12", seats: 2, legs: [["LHR", "JFK"], ["JFK", "SFO"]] };
const ACCEPT = { confirm: { action: "accept", content: { confirm: true, cabin: "business" } } } as const;

/** Bundles `dist/examples/worker/<file>` as a Workers project would: browser platform, workerd conditions, nothing external. */
async function bundleForWorkerd(file: string): Promise<{ code: string; imports: string[] }> {
  const built = await build({
    absWorkingDir: root,
    entryPoints: [join(root, "dist/examples/worker", file)],
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
    // Resolve mcp-roundtrip/* through the package's exports, not this repository's tsconfig paths.
    tsconfigRaw: "{}",
  });
  const imports = Object.values(built.metafile.outputs).flatMap((output) => output.imports.map((entry) => entry.path));
  return { code: built.outputFiles[0]!.text, imports };
}

/** Writes `code` to `<dir>/<name>.mjs` and runs it in workerd through Miniflare (under Node 22) with `bindings`. */
async function startWorker(dir: string, name: string, code: string, bindings: Record<string, string>): Promise<RuntimeServer> {
  const script = join(dir, `${name}.mjs`);
  writeFileSync(script, code);
  const runtime = { ...node22(), env: { MINIFLARE_BINDINGS: JSON.stringify(bindings) } };
  return startServer(runtime, join(root, "test/support/miniflare-child.mjs"), [script, COMPATIBILITY_DATE], 60_000);
}

// One workerd per worker, shared by every test here: the flight desk, and
// the client worker; plus the flight desk on node:http for the client worker.
let dir: string;
let bundle: string;
let imports: string[];
let clientBundle: { code: string; imports: string[] };
let worker: RuntimeServer;
let clientWorker: RuntimeServer;
let nodeServer: HttpServerHandle;
let client: Client;

beforeAll(async () => {
  ensureBuilt("examples/worker/worker.js");
  dir = mkdtempSync(join(tmpdir(), "mcp-workerd-"));
  ({ code: bundle, imports } = await bundleForWorkerd("worker.js"));
  clientBundle = await bundleForWorkerd("client.js");
  [worker, clientWorker, nodeServer] = await Promise.all([
    startWorker(dir, "worker", bundle, { MCP_REQUEST_STATE_KEYS: KEY }),
    startWorker(dir, "client", clientBundle.code, {}),
    serveHttp(createFlightDesk({ MCP_REQUEST_STATE_KEYS: KEY })),
  ]);
  client = await Client.connect(worker.url, { onElicit: async () => ACCEPT.confirm });
}, 200_000);

afterAll(async () => {
  await client?.close();
  await Promise.all([worker?.stop(), clientWorker?.stop(), nodeServer?.close()]);
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe("examples/worker in workerd (Miniflare)", () => {
  it("bundles with no node: import and no new Function", () => {
    // Nothing left for the runtime to import (a node: builtin included), and no eval-style code generation.
    expect(imports).toEqual([]);
    expect(bundle).not.toMatch(/\bimport\s*\(\s*["']node:|\bfrom\s*["']node:|\brequire\(\s*["']node:/);
    expect(bundle).not.toMatch(/new Function\s*\(|(?<![\w$.])Function\s*\(/);
  });

  it("completes a sealed round by hand: the token verifies on node:crypto with the same key", async () => {
    expect(client.serverInfo?.name).toBe("flight-desk");
    const first = await client.session.callTool("book_flight", ARGS, { allowInputRequired: true });
    expect(isInputRequired(first)).toBe(true);
    if (!isInputRequired(first)) return;
    expect(first.inputRequests?.confirm?.method).toBe("elicitation/create");
    expect(first.requestState).toMatch(/^v1\.[A-Za-z0-9_-]+$/);

    const node = new RequestStateSecurity({ keys: [decodeKeyEntry(KEY)] }, { audience: "flight-desk", crypto: "node" });
    await expect(node.verify(first.requestState, { method: "tools/call", target: "book_flight", arguments: ARGS })).resolves.toEqual(expect.any(String));
    await expect(node.verify(first.requestState, { method: "tools/call", target: "book_flight", arguments: { ...ARGS, seats: 3 } })).rejects.toThrow();

    const done = await client.session.callTool("book_flight", ARGS, { allowInputRequired: true, inputResponses: ACCEPT, requestState: first.requestState });
    expect(isInputRequired(done)).toBe(false);
    const text = (done as { content: { text?: string }[] }).content[0]?.text;
    expect(text).toMatch(/^Booked ABC-12: LHR→JFK→SFO, 2 seat\(s\) in business; sealed with \w+\.$/);
    // workerd has no node:crypto: the portable backend sealed it.
    expect(text).not.toContain("sealed with node");
  });

  it("runs the automatic loop against it", async () => {
    const result = await client.callTool("book_flight", { code: "XYZ-99", seats: 1, legs: [["CDG", "NRT"]] });
    expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringMatching(/^Booked XYZ-99: CDG→NRT, 1 seat\(s\) in business;/) });
  });

  it("refuses a requestState it did not mint", async () => {
    const other = new RequestStateSecurity({ keys: ["another-key-another-key-another-key!"] }, { audience: "flight-desk" });
    const forged = await other.mint({ method: "tools/call", target: "book_flight", arguments: ARGS, state: "{}" });
    await expect(
      client.session.callTool("book_flight", ARGS, { allowInputRequired: true, inputResponses: ACCEPT, requestState: forged }),
    ).rejects.toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
  });

  it.each([
    ["a code that breaks the pattern", { ...ARGS, code: "abc-12" }, /\/code\b.*pattern/],
    ["a seat count below the minimum", { ...ARGS, seats: 0 }, /\/seats\b.*less than 1/],
    ["a leg that is not a pair", { ...ARGS, legs: [["LHR", "JFK"], ["JFK"]] }, /\/legs\/1\b.*too few items/],
    ["an airport that breaks the nested pattern", { ...ARGS, legs: [["LHR", "jfk"]] }, /\/legs\/0\/1\b.*pattern/],
  ])("rejects %s with a tool error naming the field, before asking anything", async (_what, args, problem) => {
    let asked = 0;
    const strict = await Client.connect(worker.url, {
      onElicit: async () => {
        asked++;
        return ACCEPT.confirm;
      },
    });
    try {
      const result = await strict.callTool("book_flight", args);
      expect(result.isError).toBe(true);
      const text = (result.content[0] as { text: string }).text;
      expect(text).toMatch(/^Invalid arguments for tool book_flight: /);
      expect(text).toMatch(problem);
      expect(asked).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it("logged nothing alarming in workerd", () => {
    expect(worker.output()).not.toMatch(/Code generation from strings disallowed|EvalError|Uncaught/);
  });
});

describe("examples/worker/client.ts: the client inside workerd", () => {
  it("bundles with no node: import", () => {
    expect(clientBundle.imports).toEqual([]);
    expect(clientBundle.code).not.toMatch(/\bimport\s*\(\s*["']node:|\bfrom\s*["']node:|\brequire\(\s*["']node:/);
  });

  it.each([
    ["a Node server", () => nodeServer.url, "node"],
    ["the worker server in another workerd", () => worker.url, "noble"],
  ])("completes a sealed multi-round call against %s", async (_what, url, sealer) => {
    const target = new URL(clientWorker.url);
    target.pathname = "/";
    target.search = new URLSearchParams({ server: url(), code: "WRK-07", from: "AMS", to: "LIS" }).toString();
    const response = await fetch(target);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { protocolVersion: string; questions: number; result: { content: { text: string }[] } };
    expect(body.protocolVersion).toBe("2026-07-28");
    expect(body.questions).toBe(1);
    expect(body.result.content[0]!.text).toBe(`Booked WRK-07: AMS→LIS, 1 seat(s) in economy; sealed with ${sealer}.`);
  });

  it("answers 400 with what to pass when no server is named", async () => {
    const response = await fetch(new URL("/", clientWorker.url));
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("Pass ?server=<the MCP endpoint's URL>.\n");
  });
});
