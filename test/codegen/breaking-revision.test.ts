// A revision that breaks the SDK's model is held back until its one adapter
// file exists. A synthetic revision (a year after the newest pinned one: 2026-07-28 with
// Tool.title renamed to displayName) is added to a temp copy of the repository
// with `npm run codegen -- --add-revision`: the command names the rename and
// the file to write, and the copy's server refuses the revision with -32022.
// Then runtime/adapters/<rev>.ts is written and codegen run: the copy's server
// serves the revision, every result it sends a client of it matches its schema
// with Tool closed to unknown properties (no `title`), and a 2026-07-28 client
// still gets `title`. The repository this test runs in is left as it was.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyRepository, copyRuntimeInto, importFrom, removeCopy, revisionAfterNewest, runCodegen, writeRelease } from "../support/repo-copy.js";
import { publishedSchemaBytes, REPO_ROOT } from "../support/schema.js";

const MODEL = "2026-07-28";
/** The synthetic breaking revision: newer than any pinned one. */
const BREAKING = revisionAfterNewest("03-01");
const ADAPTER = `runtime/adapters/${BREAKING}.ts`;

/** 2026-07-28's schema with Tool.title renamed to displayName (same sub-schema, new prose). */
function renamed(base: Buffer): Record<string, unknown> & { $defs: Record<string, { properties: Record<string, unknown> }> } {
  const schema = JSON.parse(base.toString("utf8"));
  const { title, ...rest } = schema.$defs.Tool.properties;
  schema.$defs.Tool.properties = { ...rest, displayName: { ...title, description: "What a user interface shows for the tool." } };
  return schema;
}

/** The adapter a maintainer writes: Tool.title (model) ↔ displayName (wire), wherever a Tool leaves. */
const ADAPTER_SOURCE = `import { defineAdapter } from "../protocol/adapter.js";

type Tool = Record<string, unknown>;
const toWire = ({ title, ...tool }: Tool): Tool => (title === undefined ? tool : { ...tool, displayName: title });

export default defineAdapter({
  model: "${MODEL}",
  results: {
    "tools/list": (result) => ({ ...result, tools: (result.tools as Tool[]).map(toWire) }),
  },
});
`;

let work: string;
let copy: string;
let added: { code: number; output: string };

const fromCopy = <T>(path: string): Promise<T> => importFrom<T>(copy, path);
type ServerModule = typeof import("../../runtime/entries/server.js");

/** A server with a titled tool, a prompt and a resource: what a client of each revision lists and calls. */
async function copyServer() {
  const { McpServer } = await fromCopy<ServerModule>("runtime/entries/server.ts");
  const server = new McpServer({ name: "titled", version: "1.0.0" });
  server.tool("greet", { title: "Greeter", description: "Says hello." }, () => ({ content: [{ type: "text", text: "hello" }] }));
  server.prompt("intro", { title: "Intro" }, () => ({ messages: [{ role: "user", content: { type: "text", text: "hi" } }] }));
  server.resource("file:///readme", { name: "readme", title: "Readme" }, () => "read me");
  return server;
}

let id = 0;
/** One raw request of `version`, answered by `server`: the wire as a client of that revision sees it. */
async function ask(server: { handle(message: unknown): Promise<unknown> }, version: string, method: string, params: Record<string, unknown> = {}) {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return (await server.handle({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta } })) as {
    result?: Record<string, unknown>;
    error?: { code: number; data?: unknown };
  };
}

beforeAll(async () => {
  ({ work, root: copy } = await copyRepository("mcp-breaking-revision-"));
  const release = writeRelease(work, Buffer.from(`${JSON.stringify(renamed(await publishedSchemaBytes(MODEL)), null, 2)}\n`));
  added = await runCodegen(copy, ["--add-revision", BREAKING, "--schema", release]);
}, 120_000);

afterAll(() => removeCopy(work));

describe(`a breaking revision (${BREAKING}: Tool.title renamed to displayName)`, () => {
  it("--add-revision classifies the rename as breaking and names the one file to write, and what it must map", () => {
    expect(added.code, added.output).toBe(0);
    expect(added.output).toContain(`  diff     against ${MODEL} (the SDK's model), both after their overlays: 1 change(s), 1 breaking`);
    expect(added.output).toContain("    breaking  Tool: renamed title → displayName?");
    expect(added.output).toContain(`  runtime  not served: 1 breaking change(s) against ${MODEL}`);
    expect(added.output).toContain(`To serve it, write ${ADAPTER}: export default defineAdapter({ model: "${MODEL}", … })`);
    // tools/list's tools, and the tools a sampling request may carry inside an InputRequiredResult.
    expect(added.output).toMatch(
      / {13}Tool: renamed title → displayName\?\n {15}results \(model → wire\): prompts\/get, resources\/read, tools\/call, tools\/list\n {11}then/,
    );
    expect(added.output).toContain(`then run npm run codegen: ${BREAKING} is served through the adapter`);
  });

  it("records the breaking change in schema/sources.json and leaves the revision out of what is served", async () => {
    const entry = JSON.parse(readFileSync(join(copy, "schema/sources.json"), "utf8")).revisions[BREAKING];
    expect(entry.breaking).toEqual(["Tool: renamed title → displayName?"]);
    expect(entry.serve).toBeUndefined();
    expect(readFileSync(join(copy, "generated/revisions.ts"), "utf8")).toContain(`here: ${BREAKING}): the runtime refuses it with -32022.`);
    expect(readFileSync(join(copy, "generated/adapters.ts"), "utf8")).toContain("export const ADAPTERS = {} as const;");
    const refused = await ask(await copyServer(), BREAKING, "tools/list");
    expect(refused.error).toMatchObject({ code: -32022, data: { requested: BREAKING } });
    expect((refused.error!.data as { supported: string[] }).supported).not.toContain(BREAKING);
  });

  it("is served once its adapter file exists and npm run codegen ran: results match its schema, Tool without title", async () => {
    mkdirSync(join(copy, "runtime/adapters"), { recursive: true });
    writeFileSync(join(copy, ADAPTER), ADAPTER_SOURCE);
    const regenerated = await runCodegen(copy, ["--revision", BREAKING]);
    expect(regenerated.code, regenerated.output).toBe(0);
    expect(readFileSync(join(copy, "generated/adapters.ts"), "utf8")).toContain(
      `import r${BREAKING.replaceAll("-", "_")} from "../runtime/adapters/${BREAKING}.js";`,
    );
    expect(readFileSync(join(copy, "generated/revisions.ts"), "utf8")).toContain(`Object.freeze(["${BREAKING}", "${MODEL}"])`);

    // The copy's runtime again, reading the regenerated index: from a second folder, since this
    // process has the first one's modules loaded already.
    const loaded = copy;
    copy = join(work, "served");
    copyRuntimeInto(loaded, copy);
    const server = await copyServer();
    const strict = renamed(await publishedSchemaBytes(MODEL));
    (strict.$defs.Tool as Record<string, unknown>).additionalProperties = false; // unknown properties rejected on the changed type
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ ...strict, $id: "https://example.test/breaking.json" });
    const checks: Array<[method: string, params: Record<string, unknown>, definition: string]> = [
      ["server/discover", {}, "DiscoverResult"],
      ["tools/list", {}, "ListToolsResult"],
      ["tools/call", { name: "greet", arguments: {} }, "CallToolResult"],
      ["prompts/list", {}, "ListPromptsResult"],
      ["prompts/get", { name: "intro" }, "GetPromptResult"],
      ["resources/list", {}, "ListResourcesResult"],
      ["resources/read", { uri: "file:///readme" }, "ReadResourceResult"],
    ];
    for (const [method, params, definition] of checks) {
      const { result, error } = await ask(server, BREAKING, method, params);
      expect(error, method).toBeUndefined();
      const validate = ajv.getSchema(`https://example.test/breaking.json#/$defs/${definition}`)!;
      expect(validate(result), `${method}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const listed = await ask(server, BREAKING, "tools/list");
    expect(listed.result?.tools).toEqual([expect.objectContaining({ name: "greet", displayName: "Greeter" })]);
    expect((listed.result!.tools as object[])[0]).not.toHaveProperty("title");
    expect((await ask(server, BREAKING, "server/discover")).result?.supportedVersions).toEqual(expect.arrayContaining([BREAKING, MODEL]));
    // A 2026-07-28 client of the same server still gets title.
    const model = await ask(server, MODEL, "tools/list");
    expect((model.result!.tools as object[])[0]).toMatchObject({ name: "greet", title: "Greeter" });
    expect((model.result!.tools as object[])[0]).not.toHaveProperty("displayName");
  }, 120_000);

  it("leaves the repository it runs in unchanged", () => {
    expect(existsSync(join(REPO_ROOT, ADAPTER))).toBe(false);
    expect(existsSync(join(REPO_ROOT, "generated", BREAKING))).toBe(false);
  });
});
