// A rehearsal of a real breaking revision: SEP-3279 ("Negotiated tool result variants", a draft
// aimed at 2026-12-01) applied to 2026-07-28's schema (test/support/synthetic-revision.ts), added
// to a temp copy of the repository with `npm run codegen -- --add-revision`. The command names
// the breaking changes and holds the revision back; then its one adapter file
// (test/rehearsal/2026-12-01.adapter.ts, copied to runtime/adapters/2026-12-01.ts) is written and
// codegen run, and the copy's server serves it. Tools written once against today's API
// (content, outputSchema/structuredContent) then answer a 2026-07-28 client exactly as this
// repository's server does, and a 2026-12-01 client with outputVariants and the outputs it asked
// for, every result valid against 2026-12-01's schema with Tool and CallToolResult closed to
// unknown properties. The repository this test runs in is left as it was.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyRepository, importFrom, removeCopy, runCodegen, writeRelease } from "../support/repo-copy.js";
import { publishedSchemaBytes, REPO_ROOT } from "../support/schema.js";
import { addOutputVariants, parseSchema, schemaBytes } from "../support/synthetic-revision.js";

const MODEL = "2026-07-28";
const REVISION = "2026-12-01";
const ADAPTER = `runtime/adapters/${REVISION}.ts`;
const FIXTURE = join(REPO_ROOT, "test/rehearsal", `${REVISION}.adapter.ts`);

type ServerModule = typeof import("../../runtime/entries/server.js");
type ClientModule = typeof import("../../runtime/entries/client-node.js");
type Json = Record<string, unknown>;
/** A client of the copy as this repository's types can name it (the copy's own types: the strict probe). */
interface LooseClient {
  readonly protocolVersion: string;
  listTools(): Promise<{ tools: Json[] }>;
  request(method: string, params: Json): Promise<Json>;
  callTool(name: string): Promise<Json>;
  close(): Promise<void>;
}

let work: string;
let copy: string;
let added: { code: number; output: string };

/** A user's file in the copy: a client pinned to the revision asks for outputs and reads them, typed, with no cast. */
const PROBE = `
  import { Client } from "mcp-roundtrip/client";
  import type { McpServer } from "mcp-roundtrip/server";
  import type { CallToolResult, Tool, ToolResultOutput, ToolResultVariant } from "mcp-roundtrip/types/${REVISION}";
  import type * as Model from "mcp-roundtrip/types/${MODEL}";
  type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
  const holds = <T extends true>(): T => true as T;

  export async function weather(server: McpServer): Promise<ToolResultOutput[]> {
    const client = await Client.connect(server, { mode: "${REVISION}" });
    const result = await client.request("tools/call", {
      name: "weather",
      arguments: { city: "Lima" },
      requestedOutputs: [{ audience: "programmatic", format: "structured" }],
    });
    holds<Equal<typeof result, CallToolResult>>();
    const outputs: ToolResultOutput[] = result.outputs;
    const first = outputs[0];
    const payload: unknown = first?.format === "structured" ? first.structuredContent : first?.content;
    void payload;
    // @ts-expect-error ${REVISION}'s result has no content
    void result.content;
    // @ts-expect-error a selector's format is "content" or "structured"
    void client.request("tools/call", { name: "weather", requestedOutputs: [{ audience: "user", format: "html" }] });
    // callTool names no outputs (assistant/content alone) and is typed by the pinned revision too; so is a
    // default client, whose newest revision is now this one.
    const plain: ToolResultOutput[] = (await client.callTool("greet")).outputs;
    const auto: ToolResultOutput[] = (await (await Client.connect(server)).callTool("greet")).outputs;
    void [plain, auto];
    const tools: Tool[] = (await client.listTools()).tools;
    const variants: ToolResultVariant[] | undefined = tools[0]?.outputVariants;
    void variants;
    // A client of the model's revision keeps today's shapes.
    const today = await Client.connect(server, { mode: "${MODEL}" });
    const legacy = await today.callTool("weather", { city: "Lima" });
    holds<Equal<typeof legacy.content, Model.CallToolResult["content"]>>();
    return outputs;
  }
`;

const fromCopy = <T>(path: string): Promise<T> => importFrom<T>(copy, path);

const WEATHER_OUTPUT = {
  type: "object",
  properties: { city: { type: "string" }, celsius: { type: "number" } },
  required: ["city", "celsius"],
  additionalProperties: false,
} as const;
const CITY = { type: "object", properties: { city: { type: "string" } }, required: ["city"] } as const;

/** How often each tool's body ran: a refused call must not run it. */
const runs: Record<string, number> = {};

/** Tools written once, against today's API: the same code builds this repository's server and the copy's. */
function tools({ McpServer, elicit, sample }: ServerModule) {
  const server = new McpServer({ name: "weather", version: "1.0.0" });
  server.tool("greet", { description: "Says hello." }, () => {
    runs.greet = (runs.greet ?? 0) + 1;
    return { content: [{ type: "text", text: "hello" }] };
  });
  server.tool("weather", { inputSchema: CITY, outputSchema: WEATHER_OUTPUT }, ({ city }) => {
    if (city === "Atlantis") return { content: [{ type: "text", text: "No station in Atlantis." }], isError: true };
    return { content: [{ type: "text", text: `21 °C in ${city}` }], structuredContent: { city, celsius: 21 } };
  });
  const confirm = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] } as const;
  server.tool(
    "book",
    { inputSchema: CITY, outputSchema: WEATHER_OUTPUT, needs: (need) => need.add("ok", () => elicit({ message: "Book a trip?", schema: confirm })) },
    ({ city }, { ok }) => ({ structuredContent: { city: ok.action === "accept" && ok.content.confirm ? city : "nowhere", celsius: 0 } }),
  );
  // A sampling request inside input_required carries a Tool too.
  const planner = { name: "weather", inputSchema: CITY, outputSchema: WEATHER_OUTPUT };
  const draft = () => sample({ messages: [{ role: "user", content: { type: "text", text: "Plan" } }], maxTokens: 9, tools: [planner] });
  server.tool("plan", { needs: (need) => need.add("draft", draft) }, () => ({ content: [{ type: "text", text: "planned" }] }));
  return server;
}

let id = 0;
/** One raw request of `version`: the wire as a client of that revision sees it. */
async function ask(server: { handle(message: unknown): Promise<unknown> }, version: string, method: string, params: Json = {}) {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} }, sampling: { tools: {} } },
  };
  return (await server.handle({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta } })) as {
    result?: Json & { outputs?: Json[]; tools?: Json[] };
    error?: { code: number; message: string; data?: unknown };
  };
}

/** 2026-12-01's schema as a strict reader holds it: the changed definitions closed to unknown properties. */
async function strictValidator() {
  const schema = parseSchema(await publishedSchemaBytes(MODEL));
  addOutputVariants(schema);
  for (const name of [
    "Tool",
    "CallToolResult",
    "ContentToolResultOutput",
    "StructuredToolResultOutput",
    "ContentToolResultVariant",
    "StructuredToolResultVariant",
  ]) {
    schema.$defs[name]!.additionalProperties = false;
  }
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ ...schema, $id: "https://example.test/2026-12-01.json" });
  return (definition: string, value: unknown) => {
    const validate = ajv.getSchema(`https://example.test/2026-12-01.json#/$defs/${definition}`)!;
    return validate(value) ? "valid" : JSON.stringify(validate.errors);
  };
}

beforeAll(async () => {
  ({ work, root: copy } = await copyRepository("mcp-sep-3279-"));
  const schema = parseSchema(await publishedSchemaBytes(MODEL));
  addOutputVariants(schema);
  added = await runCodegen(copy, ["--add-revision", REVISION, "--schema", writeRelease(work, schemaBytes(schema))]);
}, 60_000);

afterAll(() => removeCopy(work));

describe(`SEP-3279 rehearsed as ${REVISION}: tools/call's content/structuredContent → outputs, Tool.outputVariants`, () => {
  it("--add-revision reports the five breaking changes, where each reaches the wire, and holds the revision back", () => {
    expect(added.code, added.output).toBe(0);
    expect(added.output).toContain(`  diff     against ${MODEL} (the SDK's model), both after their overlays: 13 change(s), 5 breaking`);
    const breaking = [
      "CallToolResult: property content removed",
      "CallToolResult: property structuredContent removed",
      "CallToolResult: new required property outputs",
      "Tool: property outputSchema removed",
      "Tool: new required property outputVariants",
    ];
    for (const change of breaking) expect(added.output).toContain(`    breaking  ${change}`);
    expect(added.output).toContain("    additive  CallToolRequestParams: new optional property requestedOutputs");
    expect(added.output).toMatch(/ {13}CallToolResult: new required property outputs\n {15}results \(model → wire\): tools\/call\n/);
    expect(added.output).toMatch(
      / {13}Tool: new required property outputVariants\n {15}results \(model → wire\): prompts\/get, resources\/read, tools\/call, tools\/list\n/,
    );
    expect(added.output).toContain(`To serve it, write ${ADAPTER}: export default defineAdapter({ model: "${MODEL}", … })`);
    const entry = JSON.parse(readFileSync(join(copy, "schema/sources.json"), "utf8")).revisions[REVISION];
    expect(entry.breaking).toEqual(breaking);
    expect(readFileSync(join(copy, "generated/revisions.ts"), "utf8")).toContain(`here: ${REVISION}): the runtime refuses it with -32022.`);
  });

  it("is served once its one adapter file is in runtime/adapters/ and npm run codegen ran", async () => {
    mkdirSync(join(copy, "runtime/adapters"), { recursive: true });
    cpSync(FIXTURE, join(copy, ADAPTER));
    const regenerated = await runCodegen(copy, ["--revision", REVISION]);
    expect(regenerated.code, regenerated.output).toBe(0);
    expect(readFileSync(join(copy, "generated/adapters.ts"), "utf8")).toContain(`import r2026_12_01 from "../runtime/adapters/${REVISION}.js";`);
    expect(readFileSync(join(copy, "generated/revisions.ts"), "utf8")).toContain(`Object.freeze(["${REVISION}", "${MODEL}"])`);
  }, 60_000);

  describe("a tool written once", () => {
    let server: ReturnType<typeof tools>;
    let strict: Awaited<ReturnType<typeof strictValidator>>;
    beforeAll(async () => {
      server = tools(await fromCopy<ServerModule>("runtime/entries/server.ts"));
      strict = await strictValidator();
    });

    it(`lists each tool to a ${REVISION} client with outputVariants derived from its outputSchema, and no outputSchema`, async () => {
      const { result, error } = await ask(server, REVISION, "tools/list");
      expect(error).toBeUndefined();
      expect(strict("ListToolsResult", result)).toBe("valid");
      const byName = Object.fromEntries(result!.tools!.map((tool) => [tool.name, tool]));
      expect(byName.greet!.outputVariants).toEqual([{ audience: "assistant", format: "content" }]);
      expect(byName.weather!.outputVariants).toEqual([
        { audience: "assistant", format: "content" },
        { audience: "programmatic", format: "structured", schema: WEATHER_OUTPUT },
      ]);
      for (const tool of result!.tools!) expect(tool).not.toHaveProperty("outputSchema");
    });

    it("returns exactly the outputs asked for, in order, mapped from content and structuredContent; assistant/content alone when none are named", async () => {
      const plain = await ask(server, REVISION, "tools/call", { name: "weather", arguments: { city: "Oslo" } });
      expect(strict("CallToolResult", plain.result)).toBe("valid");
      expect(plain.result!.outputs).toEqual([{ audience: "assistant", format: "content", content: [{ type: "text", text: "21 °C in Oslo" }] }]);
      expect(plain.result).not.toHaveProperty("content");
      expect(plain.result).not.toHaveProperty("structuredContent");

      const requestedOutputs = [
        { audience: "programmatic", format: "structured" },
        { audience: "assistant", format: "content" },
      ];
      const both = await ask(server, REVISION, "tools/call", { name: "weather", arguments: { city: "Oslo" }, requestedOutputs });
      expect(strict("CallToolResult", both.result)).toBe("valid");
      expect(both.result!.outputs).toEqual([
        { audience: "programmatic", format: "structured", structuredContent: { city: "Oslo", celsius: 21 } },
        { audience: "assistant", format: "content", content: [{ type: "text", text: "21 °C in Oslo" }] },
      ]);
      const structured = both.result!.outputs![0]!.structuredContent;
      expect(new Ajv2020({ strict: false }).validate(WEATHER_OUTPUT, structured)).toBe(true); // valid against the variant's schema

      // A failed call still answers each selector; its words are in the content output.
      const failed = await ask(server, REVISION, "tools/call", { name: "weather", arguments: { city: "Atlantis" }, requestedOutputs });
      expect(strict("CallToolResult", failed.result)).toBe("valid");
      expect(failed.result).toMatchObject({ isError: true, outputs: [{ format: "structured", structuredContent: null }, { format: "content" }] });
    });

    it.each<[string, Json[], RegExp]>([
      [
        "programmatic/structured on a tool without an outputSchema",
        [{ audience: "programmatic", format: "structured" }],
        /requestedOutputs\/0 asks for programmatic\/structured, which tool "greet" does not offer/,
      ],
      [
        "an unknown audience",
        [{ audience: "auditor", format: "content" }],
        /requestedOutputs\/0 asks for auditor\/content, which tool "greet" does not offer.*: assistant\/content$/,
      ],
      [
        "a duplicate",
        [
          { audience: "assistant", format: "content" },
          { audience: "assistant", format: "content" },
        ],
        /requestedOutputs\/1 repeats assistant\/content/,
      ],
    ])("refuses %s with -32602 naming the selector, before the tool runs", async (_name, requestedOutputs, message) => {
      const before = runs.greet ?? 0;
      const { error, result } = await ask(server, REVISION, "tools/call", { name: "greet", arguments: {}, requestedOutputs });
      expect(result).toBeUndefined();
      expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(message), data: { selector: requestedOutputs.at(-1) } });
      expect(runs.greet ?? 0).toBe(before);
    });

    it("passes input_required through in its shape (a Tool inside a sampling request mapped), each round valid against the revision", async () => {
      const asking = await ask(server, REVISION, "tools/call", {
        name: "book",
        arguments: { city: "Rome" },
        requestedOutputs: [{ audience: "programmatic", format: "structured" }],
      });
      expect(strict("InputRequiredResult", asking.result)).toBe("valid");
      expect(asking.result).toMatchObject({ resultType: "input_required", inputRequests: { ok: { method: "elicitation/create" } } });
      expect(asking.result).not.toHaveProperty("outputs");
      const sampling = await ask(server, REVISION, "tools/call", { name: "plan", arguments: {} });
      expect(strict("InputRequiredResult", sampling.result)).toBe("valid");
      const tool = (sampling.result!.inputRequests as { draft: { params: { tools: Json[] } } }).draft.params.tools[0];
      expect(tool).toEqual({ name: "weather", inputSchema: CITY, outputVariants: expect.arrayContaining([expect.objectContaining({ schema: WEATHER_OUTPUT })]) });
      // The same call under 2026-07-28 keeps outputSchema.
      const legacy = await ask(server, MODEL, "tools/call", { name: "plan", arguments: {} });
      expect((legacy.result!.inputRequests as { draft: { params: { tools: Json[] } } }).draft.params.tools[0]).toEqual({
        name: "weather",
        inputSchema: CITY,
        outputSchema: WEATHER_OUTPUT,
      });
    });

    it(`answers a ${MODEL} client exactly as this repository's server does (no adapter on its path)`, async () => {
      // One server, both revisions: the adapter serves 2026-12-01 beside the model's own.
      expect((await ask(server, MODEL, "server/discover")).result?.supportedVersions).toEqual(expect.arrayContaining([REVISION, MODEL]));
      const today = tools(await import("../../runtime/entries/server.js"));
      const calls: Array<[string, Json]> = [
        ["tools/list", {}],
        ["tools/call", { name: "greet", arguments: {} }],
        ["tools/call", { name: "weather", arguments: { city: "Oslo" } }],
        ["tools/call", { name: "weather", arguments: { city: "Atlantis" } }],
      ];
      for (const [method, params] of calls) {
        const { id: _served, ...served } = (await ask(server, MODEL, method, params)) as Json;
        const { id: _reference, ...reference } = (await ask(today, MODEL, method, params)) as Json;
        expect(served, `${method} ${JSON.stringify(params)}`).toEqual(reference);
      }
      expect((await ask(server, MODEL, "tools/call", { name: "weather", arguments: { city: "Oslo" } })).result).toMatchObject({
        content: [{ type: "text", text: "21 °C in Oslo" }],
        structuredContent: { city: "Oslo", celsius: 21 },
      });
    });

    it(`lets a client pinned to ${REVISION} ask for outputs and get them back, across input_required rounds`, async () => {
      const { Client } = await fromCopy<ClientModule>("runtime/entries/client-node.ts");
      const onElicit = async () => ({ action: "accept" as const, content: { confirm: true } });
      // Typed by the copy's revisions, not this repository's: the strict probe below reads these types.
      const client = (await Client.connect(server, { mode: REVISION as never, onElicit })) as unknown as LooseClient;
      expect(client.protocolVersion).toBe(REVISION);
      const weather = (await client.listTools()).tools.find((tool) => tool.name === "weather") as Json | undefined;
      expect(weather?.outputVariants).toEqual([expect.objectContaining({ audience: "assistant" }), expect.objectContaining({ audience: "programmatic" })]);
      const requestedOutputs = [{ audience: "programmatic", format: "structured" }];
      const called = await client.request("tools/call", { name: "weather", arguments: { city: "Lima" }, requestedOutputs });
      expect(called.outputs).toEqual([{ audience: "programmatic", format: "structured", structuredContent: { city: "Lima", celsius: 21 } }]);
      // requestedOutputs travel with every round; the final round's result carries them.
      const booked = await client.request("tools/call", { name: "book", arguments: { city: "Rome" }, requestedOutputs });
      expect(booked).toMatchObject({
        resultType: "complete",
        outputs: [{ audience: "programmatic", format: "structured", structuredContent: { city: "Rome", celsius: 0 } }],
      });
      await expect(client.request("tools/call", { name: "greet", arguments: {}, requestedOutputs })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("programmatic/structured"),
      });
      await client.close();
      // The client side is not mapped yet (docs/codegen.md): a default client speaks the newest revision and gets its shapes.
      const auto = (await Client.connect(server)) as unknown as LooseClient;
      expect(auto.protocolVersion).toBe(REVISION);
      expect(await auto.callTool("greet")).toMatchObject({ outputs: [{ audience: "assistant", format: "content" }] });
      await auto.close();
      const today = await Client.connect(server, { mode: MODEL });
      expect(await today.callTool("weather", { city: "Lima" })).toMatchObject({ structuredContent: { city: "Lima", celsius: 21 } });
      await today.close();
    });
  });

  it("types the adapter file, and a pinned client's outputs with no cast, by the revision's generated types (tsc --strict on the copy)", () => {
    writeFileSync(join(copy, "probe.ts"), PROBE);
    writeFileSync(
      join(copy, "tsconfig.probe.json"),
      JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { strict: true, noEmit: true }, include: [ADAPTER, "probe.ts"] }),
    );
    const tsc = spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.probe.json", "--pretty", "false"], { cwd: copy, encoding: "utf8" });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe("");
    expect(tsc.status).toBe(0);
  }, 60_000);

  it("leaves the repository it runs in unchanged", () => {
    expect(existsSync(join(REPO_ROOT, ADAPTER))).toBe(false);
    expect(existsSync(join(REPO_ROOT, "generated", REVISION))).toBe(false);
  });
});
