// examples/worker in real workerd, through Miniflare: bundled with esbuild
// from the built package as a Workers project would bundle it (no
// nodejs_compat), then driven over HTTP by this process's Node client: a full
// multi-round tool call with sealed state (the token verifies on node:crypto
// with the same key), and the eval-free validator checking an inputSchema
// with a `pattern`, a `minimum` and nested arrays. Then
// examples/worker/client.ts, a client inside workerd, against the worker
// server and against the same server on node:http.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, isInputRequired, MODERN_PROTOCOL_VERSION } from "mcp-roundtrip/client";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { RequestStateSecurity } from "mcp-roundtrip/server";
import { decodeKeyEntry } from "mcp-roundtrip/state";
import { createWorkerServer } from "../../examples/worker/worker.js";
import { ensureBuilt, root } from "../client/ensure-built.js";
import { node22, startServer, type RuntimeServer } from "../support/runtimes.js";

/** A fixed test key (never a real one): 38 bytes, base64url. */
const KEY = "base64url:d29ya2VyZC10ZXN0LWtleS13b3JrZXJkLXRlc3Qta2V5LTEyMzQ";
/** The newest date the pinned workerd (1.20260730) supports, give or take. */
const COMPATIBILITY_DATE = "2026-07-01";
/** Two legs of [longitude, latitude] points: London to New York, New York to San Francisco. */
const ARGS = {
  code: "ABC-12",
  travellers: 2,
  legs: [
    [
      [-0.1, 51.5],
      [-74, 40.7],
    ],
    [
      [-74, 40.7],
      [-122.4, 37.8],
    ],
  ],
};
const ACCEPT = { confirm: { action: "accept", content: { seat: "window" } } } as const;
const AUDIENCE = "mcp-roundtrip-worker";

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

// One workerd per worker, shared by every test here: the worker server, and
// the client worker; plus the same server on node:http for the client worker.
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
    serveHttp(createWorkerServer({ MCP_REQUEST_STATE_KEYS: KEY })),
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
    expect(client.serverInfo?.name).toBe("mcp-roundtrip-worker");
    const first = await client.session.callTool("plan_trip", ARGS, { allowInputRequired: true });
    expect(isInputRequired(first)).toBe(true);
    if (!isInputRequired(first)) return;
    expect(first.inputRequests?.confirm).toMatchObject({ method: "elicitation/create", params: { message: "Book ABC-12 for 2 traveller(s), 2 leg(s)?" } });
    expect(first.requestState).toMatch(/^v1\.[A-Za-z0-9_-]+$/);

    // workerd (no nodejs_compat) has no node:crypto, so the portable backend sealed this; node:crypto opens it.
    const node = new RequestStateSecurity({ keys: [decodeKeyEntry(KEY)] }, { audience: AUDIENCE, crypto: "node" });
    await expect(node.verify(first.requestState, { method: "tools/call", target: "plan_trip", arguments: ARGS })).resolves.toBe('{"code":"ABC-12","points":4}');
    await expect(node.verify(first.requestState, { method: "tools/call", target: "plan_trip", arguments: { ...ARGS, travellers: 3 } })).rejects.toThrow();

    const done = await client.session.callTool("plan_trip", ARGS, { allowInputRequired: true, inputResponses: ACCEPT, requestState: first.requestState });
    expect(done).toMatchObject({ content: [{ type: "text", text: "Booked ABC-12 (4 points), seat: window" }] });
  });

  it("runs the automatic loop against it", async () => {
    const result = await client.callTool("plan_trip", {
      code: "XYZ-99",
      travellers: 1,
      legs: [
        [
          [2.35, 48.86],
          [139.7, 35.7],
        ],
      ],
    });
    expect(result.content).toEqual([{ type: "text", text: "Booked XYZ-99 (2 points), seat: window" }]);
  });

  it("refuses a requestState it did not mint", async () => {
    const other = new RequestStateSecurity({ keys: ["another-key-another-key-another-key!"] }, { audience: AUDIENCE });
    const forged = await other.mint({ method: "tools/call", target: "plan_trip", arguments: ARGS, state: "{}" });
    await expect(client.session.callTool("plan_trip", ARGS, { allowInputRequired: true, inputResponses: ACCEPT, requestState: forged })).rejects.toMatchObject({
      code: -32602,
      message: "Invalid or expired requestState",
    });
  });

  it.each([
    ["a code that breaks the pattern", { ...ARGS, code: "abc-12" }, /\/code\b.*pattern/],
    ["a traveller count below the minimum", { ...ARGS, travellers: 0 }, /\/travellers\b.*less than 1/],
    ["a leg of one point", { ...ARGS, legs: [[[-0.1, 51.5]]] }, /\/legs\/0\b.*too few items/],
    [
      "a longitude beyond the nested maximum",
      {
        ...ARGS,
        legs: [
          [
            [-0.1, 51.5],
            [200, 40.7],
          ],
        ],
      },
      /\/legs\/0\/1\/0\b/,
    ],
    [
      "a point of three numbers",
      {
        ...ARGS,
        legs: [
          [
            [-0.1, 51.5, 3],
            [-74, 40.7],
          ],
        ],
      },
      /\/legs\/0\/0\b/,
    ],
  ])("rejects %s with a tool error naming the field, before asking anything", async (_what, args, problem) => {
    let asked = 0;
    const strict = await Client.connect(worker.url, {
      onElicit: async () => {
        asked++;
        return ACCEPT.confirm;
      },
    });
    try {
      const result = await strict.callTool("plan_trip", args);
      expect(result.isError).toBe(true);
      const text = (result.content[0] as { text: string }).text;
      expect(text).toMatch(/^Invalid arguments for tool plan_trip: /);
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
    ["a Node server", () => nodeServer.url],
    ["the worker server in another workerd", () => worker.url],
  ])("completes a sealed multi-round call against %s", async (_what, url) => {
    const target = new URL("/", clientWorker.url);
    target.search = new URLSearchParams({ server: url(), code: "AMS-07", seat: "aisle" }).toString();
    const response = await fetch(target);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { protocolVersion: string; questions: number; result: { content: { text: string }[] } };
    expect(body.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
    expect(body.questions).toBe(1);
    expect(body.result.content).toEqual([{ type: "text", text: "Booked AMS-07 (2 points), seat: aisle" }]);
  });

  it("answers 400 with what to pass when no server is named", async () => {
    const response = await fetch(new URL("/", clientWorker.url));
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("Pass ?server=<the MCP endpoint's URL>.\n");
  });
});
