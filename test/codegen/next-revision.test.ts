// A plausible next revision, added the way a maintainer would, and used the
// way a user would. 2027-01-01 here is 2026-07-28 plus a new input-request
// kind (`confirmation/create`) gated by a new client capability
// (`confirmation`), a new request method (`tools/describe`) and a new
// optional result field (`CallToolResult.costUnits`). One command adds it to
// a temp copy of the repository, changing nothing under runtime/; then a
// user's file that asks the new kind (`ask` and `inputRequired`), answers it
// (`onInputRequest`), serves and calls the new method (`setRequestHandler`,
// `client.request`) and reads the new field from a client pinned to the
// revision compiles under --strict with no cast, and runs against the
// copy's build through the package's own exports.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedPaths, copyRepository, removeCopy, revisionAfterNewest, runCodegen, treeDigest, writeRelease } from "../support/repo-copy.js";
import { publishedSchemaBytes, REPO_ROOT } from "../support/schema.js";
import { addConfirmationKind, addCostUnits, addToolsDescribe, parseSchema, schemaBytes } from "../support/synthetic-revision.js";

const BASE = "2026-07-28";
const NEW = revisionAfterNewest("01-01");

let work: string;
let copy: string;
let before: Map<string, string>;
let added: { code: number; output: string };

/** The user's file: every piece of the new revision, used as the docs show, with no cast. */
const USER_FILE = `
import { McpServer, ask, inputRequired } from "mcp-roundtrip/server";
import { Client } from "mcp-roundtrip/client";

const server = new McpServer({ name: "ops", version: "1.0.0" });

// A declared need of the new kind: the handler gets its typed answer.
server.tool(
  "wipe",
  { needs: (need) => need.add("ok", () => ask("confirmation/create", { message: "Wipe the cache?", destructive: true })) },
  (_args, { ok }) => ({ content: [{ type: "text", text: ok.confirmed ? "wiped" : "kept" }] }),
);

// The same kind asked by hand.
server.tool("restart", {}, (_args, ctx) => {
  const answer = ctx.inputResponses?.sure;
  if (answer === undefined) return inputRequired({ inputRequests: { sure: { method: "confirmation/create", params: { message: "Restart now?" } } } });
  return { content: [{ type: "text", text: JSON.stringify(answer) }] };
});

// The new method, typed from the schema: params without _meta, a result without resultType.
server.setRequestHandler("tools/describe", (params) => ({ summary: \`\${params.name}: does one thing well\` }));

const asked: string[] = [];
const client = await Client.connect(server, {
  mode: "${NEW}",
  onInputRequest: {
    "confirmation/create": (params) => {
      asked.push(params.message);
      return { confirmed: params.destructive === true };
    },
  },
});

const wiped = await client.callTool("wipe");
const cost: number | undefined = wiped.costUnits;
const restarted = await client.callTool("restart");
const described = await client.request("tools/describe", { name: "wipe" });
const summary: string = described.summary;
await client.close();

// What a client of the revision before sees: neither the new kind nor the new method is part of its protocol.
const older = await Client.connect(server, { mode: "${BASE}", onInputRequest: { "confirmation/create": () => ({ confirmed: true }) } });
const refusal = await older.callTool("wipe").then(
  () => "answered",
  (error: Error & { code?: number }) => String(error.code ?? error.message),
);
const describedForOlder = await older.request("tools/describe", { name: "wipe" }).then(
  () => "answered",
  (error: Error & { code?: number }) => String(error.code ?? error.message),
);
await older.close();

console.log(
  JSON.stringify({ version: client.protocolVersion, wiped: wiped.content, cost: cost ?? null, restarted: restarted.content, summary, asked, refusal, describedForOlder }),
);
`;

beforeAll(async () => {
  ({ work, root: copy } = await copyRepository("mcp-next-revision-", ["scripts", "tsconfig.build.json"]));
  const schema = parseSchema(await publishedSchemaBytes(BASE));
  addConfirmationKind(schema);
  addToolsDescribe(schema);
  addCostUnits(schema);
  const release = writeRelease(work, schemaBytes(schema));
  before = treeDigest(copy, ["node_modules"]);
  added = await runCodegen(copy, ["--add-revision", NEW, "--schema", release]);
}, 120_000);

afterAll(() => removeCopy(work));

describe(`an additive revision (${NEW}: a new input kind and capability, a new method, a new result field)`, () => {
  it("is added by one command that names each change as additive and serves it", () => {
    expect(added.code, added.output).toBe(0);
    for (const change of ["confirmation/create", "confirmation", "tools/describe", "costUnits"]) expect(added.output).toContain(change);
    expect(added.output).not.toMatch(/^\s+breaking\s/m);
    expect(added.output).toContain(`runtime  served like the newest modern revision: the server accepts ${NEW}`);
  });

  it("changes nothing under runtime/ (only schema/ and generated/)", () => {
    const changed = changedPaths(before, treeDigest(copy, ["node_modules", ".codegen-out"]));
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.filter((path) => !path.startsWith("schema/") && !path.startsWith("generated/"))).toEqual([]);
  });

  it("generates the kind with the capability that gates it", () => {
    const kinds = readFileSync(join(copy, "generated", NEW, "kinds.ts"), "utf8");
    expect(kinds).toContain(
      '"confirmation/create": { request: "ConfirmationCreateRequest", params: "ConfirmationCreateRequestParams", result: "ConfirmationCreateResult", capability: "confirmation", rules: [] }',
    );
  });

  it("lets a user's file use all of it under --strict with no cast, and runs it against the copy's build", () => {
    const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: copy, encoding: "utf8" });
    expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);
    writeFileSync(join(copy, "user.ts"), USER_FILE);
    expect(USER_FILE).not.toMatch(/\bas\b (?!const)|<[A-Z]\w*>\(/); // no cast in the user's file
    writeFileSync(
      join(copy, "tsconfig.user.json"),
      JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { strict: true, noEmit: true }, include: ["user.ts"] }),
    );
    const tsc = spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.user.json", "--pretty", "false"], { cwd: copy, encoding: "utf8" });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe("");
    // Run as a user's program: plain JavaScript resolving mcp-roundtrip/* through the copy's package exports.
    const esbuild = spawnSync(
      join(REPO_ROOT, "node_modules", ".bin", "esbuild"),
      ["user.ts", "--format=esm", "--platform=node", "--outfile=user.mjs", "--log-level=warning"],
      { cwd: copy, encoding: "utf8" },
    );
    expect(esbuild.status, esbuild.stderr).toBe(0);
    const run = spawnSync(process.execPath, ["user.mjs"], { cwd: copy, encoding: "utf8", timeout: 60_000 });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    const printed = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    expect(printed).toEqual({
      version: NEW,
      wiped: [{ type: "text", text: "wiped" }],
      cost: null,
      restarted: [{ type: "text", text: JSON.stringify({ confirmed: false }) }],
      summary: "wipe: does one thing well",
      asked: ["Wipe the cache?", "Restart now?"],
      refusal: "-32021",
      describedForOlder: "-32601",
    });
  }, 120_000);
});
