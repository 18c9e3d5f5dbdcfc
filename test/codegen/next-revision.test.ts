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
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../codegen/main.js";
import { putInCache, sha256Hex } from "../../codegen/resolve.js";
import { PINNED_REVISIONS, publishedSchemaBytes, REPO_ROOT } from "../support/schema.js";
import { addConfirmationKind, addCostUnits, addToolsDescribe, parseSchema, schemaBytes } from "../support/synthetic-revision.js";

const BASE = "2026-07-28";
/** Newer than any pinned revision, so the test holds whatever revisions the repository gains. */
const NEW = `${Number(PINNED_REVISIONS[0]!.slice(0, 4)) + 1}-01-01`;

let work: string;
let copy: string;
let before: Map<string, string>;
let added: { code: number; output: string };

/** Every file under `dir` → its sha256, skipping the named top-level entries. */
function digest(dir: string, skip: string[]): Map<string, string> {
  const digests = new Map<string, string>();
  const visit = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      const name = relative(dir, full).split("\\").join("/");
      if (skip.includes(name)) continue;
      if (entry.isDirectory()) visit(full);
      else if (entry.isFile()) digests.set(name, sha256Hex(readFileSync(full)));
    }
  };
  visit(dir);
  return digests;
}

async function codegen(args: string[]) {
  const out: string[] = [];
  const spies = (["log", "warn", "error"] as const).map((level) => vi.spyOn(console, level).mockImplementation((...parts) => void out.push(parts.join(" "))));
  try {
    return { code: await main(copy, args), output: out.join("\n") };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

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
  work = mkdtempSync(join(tmpdir(), "mcp-next-revision-"));
  copy = join(work, "repo");
  for (const entry of ["schema", "generated", "runtime", "scripts", "package.json", "tsconfig.json", "tsconfig.base.json", "tsconfig.build.json"]) {
    cpSync(join(REPO_ROOT, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(REPO_ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  for (const revision of PINNED_REVISIONS) {
    const bytes = await publishedSchemaBytes(revision);
    putInCache(join(work, "cache"), sha256Hex(bytes), bytes);
  }
  vi.stubEnv("MCP_SCHEMA_CACHE_DIR", join(work, "cache"));
  vi.stubEnv("MCP_SCHEMA_DIR", "");
  const schema = parseSchema(await publishedSchemaBytes(BASE));
  addConfirmationKind(schema);
  addToolsDescribe(schema);
  addCostUnits(schema);
  mkdirSync(join(work, "release"));
  writeFileSync(join(work, "release", "schema.json"), schemaBytes(schema));
  before = digest(copy, ["node_modules"]);
  added = await codegen(["--add-revision", NEW, "--schema", join(work, "release", "schema.json")]);
}, 120_000);

afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(work, { recursive: true, force: true });
});

describe(`an additive revision (${NEW}: a new input kind and capability, a new method, a new result field)`, () => {
  it("is added by one command that names each change as additive and serves it", () => {
    expect(added.code, added.output).toBe(0);
    for (const change of ["confirmation/create", "confirmation", "tools/describe", "costUnits"]) expect(added.output).toContain(change);
    expect(added.output).not.toMatch(/^\s+breaking\s/m);
    expect(added.output).toContain(`runtime  served like the newest modern revision: the server accepts ${NEW}`);
  });

  it("changes nothing under runtime/ (only schema/ and generated/)", () => {
    const changed = [...new Set([...before.keys(), ...digest(copy, ["node_modules", ".codegen-out"]).keys()])].filter(
      (path) => before.get(path) !== digest(copy, ["node_modules", ".codegen-out"]).get(path),
    );
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
