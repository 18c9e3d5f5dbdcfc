// The next spec revision in one command. A synthetic revision (a year after
// the newest pinned one, e.g. 2027-01-01: a copy of 2026-07-28 with one new request method, widgets/list, and one new
// result field, CallToolResult.costUnits), built in a temp dir, is added to a
// temp copy of the repository with `npm run codegen -- --add-revision`; then
// its types, its request → result map entry and its validators are found
// where a user and the runtime look for them, with no other file edited; the
// copy's runtime serves widgets/list through setRequestHandler and calls it
// with client.request, and speaks the newest shared revision with this
// repository's runtime (the release before). The repository this test runs
// in is left as it was.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client } from "mcp-roundtrip/client";
import { putInCache, sha256Hex } from "../../codegen/resolve.js";
import { MODERN_VERSIONS } from "../../runtime/protocol/revisions.js";
import { changedPaths, importFrom, runCodegen, treeDigest } from "../support/repo-copy.js";
import { PINNED_REVISIONS, publishedExamples, publishedSchemaBytes, REPO_ROOT } from "../support/schema.js";

/** The revision the synthetic one copies. */
const BASE = "2026-07-28";
/** The newest pinned revision: the one whose overlay a new revision starts from. */
const NEWEST = PINNED_REVISIONS[0]!;
const nextYear = Number(NEWEST.slice(0, 4)) + 1;
/** The synthetic revision: newer than any pinned one, so the test holds whatever revisions the repository gains. */
const NEW = `${nextYear}-01-01`;
/** A second one, added with --no-serve. */
const UNSERVED = `${nextYear}-06-01`;
/** What this repository's runtime serves: the release before the synthetic revision. */
const PINNED_MODERN = MODERN_VERSIONS;
/** The result of widgets/list, as its handler and its caller check it. */
const WIDGETS = { type: "object", properties: { widgets: { type: "array", items: { type: "string" } } }, required: ["widgets"] };

/** What --add-revision could touch in the repository this test runs in (other tests write dist/ and caches meanwhile). */
const TOUCHABLE = ["schema", "generated", "runtime", "package.json", "tsconfig.json", "tsconfig.build.json", "vitest.config.ts"];
function repositoryDigest(): Map<string, string> {
  const all = treeDigest(REPO_ROOT, ["node_modules", ".git", "dist", ".codegen-out", "tools", "test", "bench", "examples", "docs"]);
  return new Map([...all].filter(([path]) => TOUCHABLE.some((top) => path === top || path.startsWith(`${top}/`))));
}

/** 2026-07-28's schema plus widgets/list (request, params, result, response) and CallToolResult.costUnits. */
function syntheticSchema(base: Buffer): Buffer {
  const schema = JSON.parse(base.toString("utf8"));
  const defs = schema.$defs;
  const clone = (value: unknown) => JSON.parse(JSON.stringify(value));
  defs.WidgetsListRequest = clone(defs.ListToolsRequest);
  defs.WidgetsListRequest.description = "Sent from the client to list the server's widgets.";
  defs.WidgetsListRequest.properties.method = { const: "widgets/list", type: "string" };
  defs.WidgetsListResult = clone(defs.ListToolsResult);
  defs.WidgetsListResult.description = "The result returned by the server for a widgets/list request.";
  delete defs.WidgetsListResult.properties.tools;
  defs.WidgetsListResult.properties.widgets = { type: "array", items: { type: "string" }, description: "The widgets' names." };
  defs.WidgetsListResult.required = defs.WidgetsListResult.required.map((name: string) => (name === "tools" ? "widgets" : name));
  defs.WidgetsListResultResponse = clone(defs.ListToolsResultResponse);
  defs.WidgetsListResultResponse.properties.result = { $ref: "#/$defs/WidgetsListResult" };
  defs.ClientRequest.anyOf.push({ $ref: "#/$defs/WidgetsListRequest" });
  defs.CallToolResult.properties.costUnits = { type: "number", description: "What the call cost, in the server's units." };
  return Buffer.from(`${JSON.stringify(schema, null, 2)}\n`);
}

let work: string;
let copy: string;
let schemaFile: string;
let schemaBytes: Buffer;
let repoBefore: Map<string, string>;
let copyBefore: Map<string, string>;
let run: { code: number; output: string };

const codegen = (args: string[]) => runCodegen(copy, args);

/** Imports a module of the copy (TypeScript, through vitest's transform). */
const fromCopy = <T>(path: string): Promise<T> => importFrom<T>(copy, path);

beforeAll(async () => {
  repoBefore = repositoryDigest();
  work = mkdtempSync(join(tmpdir(), "mcp-add-revision-"));
  copy = join(work, "repo");
  // What the generator, the runtime and a typecheck of them read; node_modules is shared, read-only.
  for (const entry of ["schema", "generated", "runtime", "package.json", "tsconfig.json", "tsconfig.base.json"]) {
    cpSync(join(REPO_ROOT, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(REPO_ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  // A cache of its own, holding the pinned schemas of the revisions already there (as on a machine that ran the tests).
  for (const revision of PINNED_REVISIONS) {
    const bytes = await publishedSchemaBytes(revision);
    putInCache(join(work, "cache"), sha256Hex(bytes), bytes);
  }
  const examples = await publishedExamples(BASE);
  vi.stubEnv("MCP_SCHEMA_CACHE_DIR", join(work, "cache"));
  vi.stubEnv("MCP_SCHEMA_DIR", "");
  // The new release, as a maintainer would have it: its schema.json and its examples/ folder.
  schemaBytes = syntheticSchema(await publishedSchemaBytes(BASE));
  schemaFile = join(work, "release", "schema.json");
  mkdirSync(join(work, "release", "examples", "WidgetsListRequest"), { recursive: true });
  writeFileSync(schemaFile, schemaBytes);
  for (const { definition, name, value } of examples) {
    mkdirSync(join(work, "release", "examples", definition), { recursive: true });
    writeFileSync(join(work, "release", "examples", definition, `${name}.json`), `${JSON.stringify(value, null, 2)}\n`);
  }
  writeFileSync(join(work, "release", "examples", "WidgetsListRequest", "list-widgets.json"), '{ "method": "widgets/list", "params": {} }\n');
  copyBefore = treeDigest(copy, ["node_modules"]);
  run = await codegen(["--add-revision", NEW, "--schema", schemaFile, "--examples", join(work, "release", "examples")]);
}, 120_000);

afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(work, { recursive: true, force: true });
});

describe(`npm run codegen -- --add-revision ${NEW} --schema … --examples …`, () => {
  it("succeeds, reporting each correction of the newest overlay as still applying", () => {
    expect(run.code, run.output).toBe(0);
    const overlay = JSON.parse(readFileSync(join(REPO_ROOT, "schema/overlay", `${NEWEST}.json`), "utf8")).corrections as Array<{ correction: string }>;
    for (const { correction } of overlay) expect(run.output).toMatch(new RegExp(`^ +applies +${correction}$`, "m"));
    expect(run.output).not.toContain("matches nothing");
    expect(run.output).toContain(`runtime  served like the newest modern revision: the server accepts ${NEW}`);
  });

  it("diffs it against the SDK's model and finds only additive changes, so nothing under runtime/ needs an edit", () => {
    expect(run.output).toMatch(/ {2}diff {5}against 2026-07-28 \(the SDK's model\), both after their overlays: \d+ change\(s\), 0 breaking/);
    for (const change of ["widgets/list: new method", "WidgetsListRequest: new definition", "CallToolResult: new optional property costUnits"]) {
      expect(run.output).toContain(`    additive  ${change}`);
    }
    expect(JSON.parse(readFileSync(join(copy, "schema/sources.json"), "utf8")).revisions[NEW].breaking).toBeUndefined();
  });

  it("changes only schema/ and generated/: no hand edit of package.json, a tsconfig, the runtime or a test", () => {
    const files = changedPaths(copyBefore, treeDigest(copy, ["node_modules", ".codegen-out"]));
    expect(files).toEqual([
      `generated/${NEW}/answers.ts`,
      `generated/${NEW}/index.ts`,
      `generated/${NEW}/kinds.ts`,
      `generated/${NEW}/methods.ts`,
      `generated/${NEW}/types.ts`,
      `generated/${NEW}/validators.d.ts`,
      `generated/${NEW}/validators.js`,
      "generated/answer-validators.ts",
      "generated/input-kinds.ts",
      "generated/revisions.ts",
      "generated/tables-modern.ts",
      `schema/overlay/${NEW}.json`,
      "schema/sources.json",
    ]);
  });

  it("pins the schema's and every example's sha256, computed", () => {
    const entry = JSON.parse(readFileSync(join(copy, "schema/sources.json"), "utf8")).revisions[NEW];
    expect(entry.schema).toEqual({ source: schemaFile, sha256: sha256Hex(schemaBytes) });
    expect(Object.keys(entry.examples.files)).toHaveLength(130); // 2026-07-28's 129 and list-widgets.json
    const widget = readFileSync(join(work, "release", "examples", "WidgetsListRequest", "list-widgets.json"));
    expect(entry.examples.files["WidgetsListRequest/list-widgets.json"]).toBe(sha256Hex(widget));
    expect(entry.$comment).toContain(`read from ${schemaFile}`);
    expect(entry.serve).toBeUndefined();
  });

  it("starts its overlay from the newest revision's", () => {
    const started = JSON.parse(readFileSync(join(copy, "schema/overlay", `${NEW}.json`), "utf8"));
    const newest = JSON.parse(readFileSync(join(REPO_ROOT, "schema/overlay", `${NEWEST}.json`), "utf8"));
    expect(started.corrections).toEqual(newest.corrections);
    expect(started.$comment).toContain(`from ${NEWEST}'s overlay`);
  });

  it("generates the request → result map entry and the method table row of widgets/list", () => {
    const methods = readFileSync(join(copy, "generated", NEW, "methods.ts"), "utf8");
    expect(methods).toContain('"widgets/list": { request: WidgetsListRequest; params: PaginatedRequestParams; result: WidgetsListResult };');
    expect(methods).toContain(
      '"widgets/list": { directions: ["client"], request: "WidgetsListRequest", params: "PaginatedRequestParams", result: "WidgetsListResult", response: "WidgetsListResultResponse", inputRequired: false },',
    );
    expect(methods).toContain(`export const PROTOCOL_VERSION = "${NEW}" as const;`);
  });

  it("generates validators for the new method and the new field", async () => {
    const validators = await fromCopy<typeof import("../../generated/2026-07-28/validators.js")>(`generated/${NEW}/validators.js`);
    const widgets = (validators.methodValidators as Record<string, { params: (v: unknown) => boolean; result: (v: unknown) => boolean }>)["widgets/list"]!;
    expect(widgets.result({ resultType: "complete", widgets: ["a"], ttlMs: 0, cacheScope: "private" })).toBe(true);
    expect(widgets.result({ resultType: "complete", widgets: [1] })).toBe(false);
    const meta = {
      "io.modelcontextprotocol/protocolVersion": NEW,
      "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    expect(widgets.params({ _meta: meta })).toBe(true);
    expect(widgets.params({ _meta: meta, cursor: 7 })).toBe(false);
    expect(validators.CallToolResult({ resultType: "complete", content: [], costUnits: 2.5 })).toBe(true);
    expect(validators.CallToolResult({ resultType: "complete", content: [], costUnits: "free" })).toBe(false);
  });

  it("is validated through mcp-roundtrip/validate and the runtime's lookup, and served by the runtime's version list", async () => {
    const { validate, validateResult } = await fromCopy<typeof import("../../runtime/validate/index.js")>("runtime/validate/index.ts");
    const meta = {
      "io.modelcontextprotocol/protocolVersion": NEW,
      "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const request = { jsonrpc: "2.0", id: 1, method: "widgets/list", params: { _meta: meta } };
    expect(validate("WidgetsListRequest", request, { revision: NEW as never })).toMatchObject({ ok: true });
    expect(validateResult("widgets/list", { resultType: "complete", widgets: [true] }, { revision: NEW as never })).toMatchObject({ ok: false });
    expect(() => validate("WidgetsListRequest", {})).toThrow(TypeError); // the default revision stays where it was
    const { tablesOfRevision } = await fromCopy<typeof import("../../runtime/validate/revisions.js")>("runtime/validate/revisions.ts");
    expect(tablesOfRevision(NEW)?.methodTable["widgets/list"]).toMatchObject({ request: "WidgetsListRequest" });
    const { MODERN_VERSIONS } = await fromCopy<typeof import("../../runtime/protocol/revisions.js")>("runtime/protocol/revisions.ts");
    const { MODERN_VERSIONS: before } = await import("../../runtime/protocol/revisions.js");
    expect(MODERN_VERSIONS).toEqual([NEW, ...before]);
  });

  it("is typed through mcp-roundtrip/types/2027-01-01 and validate's revision option (tsc on the copy)", () => {
    const probe = `
      import type { CallToolResult, ClientRequestMap, WidgetsListResult } from "mcp-roundtrip/types/${NEW}";
      import { validate } from "mcp-roundtrip/validate";
      type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
      const holds = <T extends true>(): T => true as T;
      holds<Equal<ClientRequestMap["widgets/list"]["result"], WidgetsListResult>>();
      holds<Equal<WidgetsListResult["widgets"], string[]>>();
      holds<Equal<CallToolResult["costUnits"], number | undefined>>();
      const checked = validate("WidgetsListResult", {}, { revision: "${NEW}" });
      export const widgets: string[] | undefined = checked.ok ? checked.value.widgets : undefined;
      // @ts-expect-error: the default revision has no widgets/list
      export type Missing = import("mcp-roundtrip/types").ClientRequestMap["widgets/list"];
    `;
    writeFileSync(join(copy, "probe.ts"), probe);
    writeFileSync(join(copy, "tsconfig.probe.json"), JSON.stringify({ extends: "./tsconfig.json", include: ["probe.ts"] }));
    const tsc = spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.probe.json", "--pretty", "false"], { cwd: copy, encoding: "utf8" });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe("");
    expect(tsc.status).toBe(0);
  }, 60_000);

  it("leaves a copy in which npm run codegen -- --check passes", async () => {
    const check = await codegen(["--check", "--no-stamp"]);
    expect(check.code, check.output).toBe(0);
    expect(check.output).toContain(`(${NEW}, ${PINNED_REVISIONS.join(", ")};`);
  }, 120_000);

  it("refuses to add it twice, naming the command for a new release of a known revision", async () => {
    const again = await codegen(["--add-revision", NEW, "--schema", schemaFile]);
    expect(again.code).toBe(1);
    expect(again.output).toContain(`${NEW} is pinned already. For a new release of it: npm run codegen -- --revision ${NEW} --schema PATH|URL --accept-new-schema`);
  });

  it("refuses a name that is not a release date, and a schema of the other era, writing nothing", async () => {
    const before = treeDigest(copy, ["node_modules", ".codegen-out"]);
    expect((await codegen(["--add-revision", "next", "--schema", schemaFile])).output).toMatch(/"next" is not a revision name: .*YYYY-MM-DD/);
    const legacy = join(work, "legacy.json");
    writeFileSync(legacy, await publishedSchemaBytes(PINNED_REVISIONS.at(-1)!));
    const wrongEra = await codegen(["--add-revision", UNSERVED, "--schema", legacy]);
    expect(wrongEra.code).toBe(1);
    expect(wrongEra.output).toMatch(new RegExp(`defines InitializeRequest \\(a handshake-era schema\\).*check that --schema names ${UNSERVED}'s schema\\.json`));
    expect(changedPaths(before, treeDigest(copy, ["node_modules", ".codegen-out"]))).toEqual([]);
  });

  it("--no-serve leaves a revision out of the runtime's list (the server refuses it with -32022)", async () => {
    const unserved = await codegen(["--add-revision", UNSERVED, "--schema", schemaFile, "--no-serve"]);
    expect(unserved.code, unserved.output).toBe(0);
    expect(JSON.parse(readFileSync(join(copy, "schema/sources.json"), "utf8")).revisions[UNSERVED].serve).toBe(false);
    const { MODERN_VERSIONS: before } = await import("../../runtime/protocol/revisions.js");
    const index = readFileSync(join(copy, "generated/revisions.ts"), "utf8");
    expect(index).toContain(`SERVED_MODERN_REVISIONS: readonly string[] = Object.freeze(${JSON.stringify([NEW, ...before]).replaceAll(",", ", ")});`);
    expect(index).toContain(`export type Revision = "${UNSERVED}" | "${NEW}" | `);
  }, 120_000);

  it("serves widgets/list through setRequestHandler with validation, called with client.request in memory and over HTTP (the copy's runtime)", async () => {
    const { createHttpHandler, McpServer } = await fromCopy<typeof import("../../runtime/entries/server.js")>("runtime/entries/server.ts");
    const { Client, StreamableHttpClientTransport } = await fromCopy<typeof import("../../runtime/entries/client-node.js")>("runtime/entries/client-node.ts");
    const server = new McpServer({ name: "widgets", version: "1.0.0" });
    server.setRequestHandler("widgets/list", { params: { type: "object", properties: { cursor: { type: "string" } } }, result: WIDGETS }, (params, ctx) => ({
      widgets: [`${ctx.protocolVersion}${typeof params.cursor === "string" ? ` after ${params.cursor}` : ""}`],
    }));
    server.tool("cost", {}, () => ({ content: [], costUnits: 2.5 }) as never);
    const handler = createHttpHandler(server);
    const overHttp = new StreamableHttpClientTransport("http://127.0.0.1/mcp", { fetch: (input, init) => handler(new Request(input, init)) });
    for (const client of [await Client.connect(server), await Client.connect(overHttp)]) {
      expect(client.protocolVersion).toBe(NEW);
      expect(await client.request("widgets/list", { cursor: "w0" }, { result: WIDGETS })).toMatchObject({ widgets: [`${NEW} after w0`] });
      const refused = (await client.request("widgets/list", { cursor: 7 }).catch((error: unknown) => error)) as { code: number; message: string };
      expect(refused.code).toBe(-32602);
      expect(refused.message).toContain("/params/cursor");
      expect(await client.callTool("cost")).toMatchObject({ costUnits: 2.5 });
      await client.close();
    }
  }, 60_000);

  it("speaks the newest revision both sides share with a release that serves only the older one, both ways", async () => {
    const copyServer = await fromCopy<typeof import("../../runtime/entries/server.js")>("runtime/entries/server.ts");
    const copyClient = await fromCopy<typeof import("../../runtime/entries/client-node.js")>("runtime/entries/client-node.ts");
    const drafting = <S extends typeof import("../../runtime/entries/server.js")>({ McpServer, sample }: S) =>
      new McpServer({ name: "drafts", version: "1.0.0" }).tool(
        "name_it",
        { needs: (need) => need.add("draft", () => sample({ messages: [{ role: "user", content: { type: "text", text: "Name it" } }], maxTokens: 5 })) },
        (_args, { draft }) => ({ content: [{ type: "text", text: (draft.content as { text: string }).text }] }),
      );
    const onSample = () => ({ role: "assistant" as const, content: { type: "text" as const, text: "Bolt" }, model: "m" });
    const spoken: Record<string, string> = {};
    // The new release's client and the old release's server (this repository's: it serves BASE), then the other way round.
    for (const [pair, client] of [
      ["new client, old server", await copyClient.Client.connect(drafting(await import("mcp-roundtrip/server")), { onSample })],
      ["old client, new server", await Client.connect(drafting(copyServer), { onSample })],
      ["new client, new server", await copyClient.Client.connect(drafting(copyServer), { onSample })],
    ] as const) {
      spoken[pair] = client.protocolVersion;
      // The sampling answer is checked against the result type of the revision spoken, then used.
      expect(await client.callTool("name_it")).toMatchObject({ content: [{ text: "Bolt" }] });
      await client.close();
    }
    expect(spoken).toEqual({ "new client, old server": PINNED_MODERN[0], "old client, new server": PINNED_MODERN[0], "new client, new server": NEW });
    const badAnswer = await copyClient.Client.connect(drafting(copyServer), { onSample: () => ({ ...onSample(), model: 7 }) as never });
    await expect(badAnswer.callTool("name_it")).rejects.toMatchObject({ name: "InputResponseInvalid", issues: [{ path: "/model" }] });
    await badAnswer.close();
  }, 60_000);

  it("leaves the repository it runs in unchanged", () => {
    expect(existsSync(join(REPO_ROOT, "generated", NEW))).toBe(false);
    expect(changedPaths(repoBefore, repositoryDigest())).toEqual([]);
  });
});
