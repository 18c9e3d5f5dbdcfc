// The resolver of pinned schema files against a fake upstream on 127.0.0.1:
// download, sha256 check, cache, MCP_SCHEMA_DIR first, and the one-line failure.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { fetchMain } from "../../codegen/fetch-main.js";
import { cachePath, defaultCacheDir, PinMismatch, resolveAll, resolvePinned, sha256Hex, SourcesUnavailable } from "../../codegen/resolve.js";
import { allPinnedFiles, readSources, recordedSource, type PinnedFile } from "../../codegen/sources.js";
import { PINNED_REVISIONS, REPO_ROOT } from "../support/schema.js";

const SCHEMA = Buffer.from('{"$defs":{"Thing":{"type":"object"}}}\n');
const EXAMPLE = Buffer.from('{"kind":"thing"}\n');
const TAMPERED = Buffer.from('{"$defs":{"Thing":{"type":"object","evil":true}}}\n');

let server: Server;
let base: string;
let scratch: string;
/** Paths the fake upstream was asked for. */
const requests: string[] = [];
/** Path → bytes the fake upstream serves; anything else is a 404. */
const served = new Map<string, Buffer>();
let caseNumber = 0;

/** A new empty folder under the scratch folder. */
const freshDir = (label: string) => {
  const dir = join(scratch, `${label}-${++caseNumber}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};
const pin = (name: string, path: string, bytes: Buffer): PinnedFile => ({ name, source: `${base}${path}`, sha256: sha256Hex(bytes) });

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "mcp-resolve-"));
  server = createServer((request, response) => {
    requests.push(request.url ?? "");
    // A fresh connection per request: a reused one the server is closing would reset a later download.
    response.setHeader("connection", "close");
    if (request.url === "/flaky/schema.json" && requests.filter((url) => url === request.url).length === 1) {
      request.socket.destroy(); // the connection drops mid-request, once
      return;
    }
    const bytes = served.get(request.url ?? "");
    if (bytes) response.end(bytes);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterEach(() => {
  requests.length = 0;
  served.clear();
  vi.unstubAllEnvs();
});

afterAll(() => {
  server.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("resolvePinned", () => {
  it("downloads a file that is nowhere local, checks it and keeps it in the cache", async () => {
    served.set("/rev/schema.json", SCHEMA);
    const cacheDir = freshDir("cache");
    const file = pin("rev/schema.json", "/rev/schema.json", SCHEMA);
    const resolved = await resolvePinned(file, { schemaDir: undefined, cacheDir });
    expect(resolved).toMatchObject({ origin: "source", location: `${base}/rev/schema.json` });
    expect(resolved.bytes).toEqual(SCHEMA);
    expect(requests).toEqual(["/rev/schema.json"]);
    expect(readFileSync(cachePath(cacheDir, file.sha256))).toEqual(SCHEMA);
  });

  it("serves the next lookup from the cache, without asking upstream", async () => {
    served.set("/rev/schema.json", SCHEMA);
    const cacheDir = freshDir("cache");
    const file = pin("rev/schema.json", "/rev/schema.json", SCHEMA);
    await resolvePinned(file, { schemaDir: undefined, cacheDir });
    served.clear(); // upstream gone
    requests.length = 0;
    const again = await resolvePinned(file, { schemaDir: undefined, cacheDir });
    expect(again).toMatchObject({ origin: "cache", location: cachePath(cacheDir, file.sha256) });
    expect(again.bytes).toEqual(SCHEMA);
    expect(requests).toEqual([]);
  });

  it("refuses a tampered download, naming both digests, and caches nothing", async () => {
    served.set("/rev/schema.json", TAMPERED);
    const cacheDir = freshDir("cache");
    const file = pin("rev/schema.json", "/rev/schema.json", SCHEMA);
    const failure = await resolvePinned(file, { schemaDir: undefined, cacheDir }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PinMismatch);
    const message = (failure as Error).message;
    expect(message).toContain(sha256Hex(TAMPERED));
    expect(message).toContain(sha256Hex(SCHEMA));
    expect(message).toContain(`${base}/rev/schema.json`);
    expect(message).toContain("tampered");
    expect(existsSync(cachePath(cacheDir, sha256Hex(SCHEMA)))).toBe(false);
    expect(existsSync(cachePath(cacheDir, sha256Hex(TAMPERED)))).toBe(false);
  });

  it("drops a damaged cache entry and downloads the file again", async () => {
    served.set("/rev/schema.json", SCHEMA);
    const cacheDir = freshDir("cache");
    const file = pin("rev/schema.json", "/rev/schema.json", SCHEMA);
    mkdirSync(join(cacheDir, "sha256"), { recursive: true });
    writeFileSync(cachePath(cacheDir, file.sha256), TAMPERED);
    const resolved = await resolvePinned(file, { schemaDir: undefined, cacheDir });
    expect(resolved.origin).toBe("source");
    expect(readFileSync(cachePath(cacheDir, file.sha256))).toEqual(SCHEMA);
  });

  it("tries a download once more when the connection drops, and stops at an HTTP error", async () => {
    served.set("/flaky/schema.json", SCHEMA);
    const flaky = pin("rev/schema.json", "/flaky/schema.json", SCHEMA);
    expect((await resolvePinned(flaky, { schemaDir: undefined, cacheDir: freshDir("cache") })).origin).toBe("source");
    expect(requests).toEqual(["/flaky/schema.json", "/flaky/schema.json"]);
    requests.length = 0;
    await expect(resolvePinned(pin("rev/schema.json", "/gone/schema.json", SCHEMA), { schemaDir: undefined, cacheDir: freshDir("cache") })).rejects.toThrow(
      /HTTP 404/,
    );
    expect(requests).toEqual(["/gone/schema.json"]);
  });

  it("reads MCP_SCHEMA_DIR first, asks nobody, and remembers the file in the cache", async () => {
    const schemaDir = freshDir("schema-dir");
    mkdirSync(join(schemaDir, "rev", "examples", "Thing"), { recursive: true });
    writeFileSync(join(schemaDir, "rev", "examples", "Thing", "one.json"), EXAMPLE);
    vi.stubEnv("MCP_SCHEMA_DIR", schemaDir);
    const cacheDir = freshDir("cache");
    const file = pin("rev/examples/Thing/one.json", "/rev/examples/Thing/one.json", EXAMPLE);
    const resolved = await resolvePinned(file, { cacheDir });
    expect(resolved).toMatchObject({ origin: "schema-dir", location: join(schemaDir, "rev", "examples", "Thing", "one.json") });
    expect(requests).toEqual([]);
    expect(readFileSync(cachePath(cacheDir, file.sha256))).toEqual(EXAMPLE);
  });

  it("refuses other bytes in MCP_SCHEMA_DIR, naming both digests", async () => {
    const schemaDir = freshDir("schema-dir");
    mkdirSync(join(schemaDir, "rev"), { recursive: true });
    writeFileSync(join(schemaDir, "rev", "schema.json"), TAMPERED);
    served.set("/rev/schema.json", SCHEMA);
    const file = pin("rev/schema.json", "/rev/schema.json", SCHEMA);
    const failure = await resolvePinned(file, { schemaDir, cacheDir: freshDir("cache") }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PinMismatch);
    expect((failure as Error).message).toContain(sha256Hex(TAMPERED));
    expect((failure as Error).message).toContain(sha256Hex(SCHEMA));
    expect((failure as Error).message).toContain("MCP_SCHEMA_DIR holds another release");
    expect(requests).toEqual([]);
  });

  it("goes on to the cache and the source when MCP_SCHEMA_DIR lacks the file", async () => {
    served.set("/rev/schema.json", SCHEMA);
    const file = pin("rev/schema.json", "/rev/schema.json", SCHEMA);
    const resolved = await resolvePinned(file, { schemaDir: freshDir("schema-dir"), cacheDir: freshDir("cache") });
    expect(resolved.origin).toBe("source");
  });

  it("reads a source that is a local path, with the same check", async () => {
    const path = join(freshDir("release"), "schema.json");
    writeFileSync(path, SCHEMA);
    const file: PinnedFile = { name: "rev/schema.json", source: path, sha256: sha256Hex(SCHEMA) };
    expect((await resolvePinned(file, { schemaDir: undefined, cacheDir: freshDir("cache") })).origin).toBe("source");
    writeFileSync(path, TAMPERED);
    await expect(resolvePinned(file, { schemaDir: undefined, cacheDir: freshDir("cache") })).rejects.toThrow(sha256Hex(TAMPERED));
  });

  it.each([
    ["upstream answers 404", () => `${base}/missing/schema.json`, /HTTP 404/],
    [
      "nothing listens at the address",
      async () => {
        const closed = createServer();
        await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
        const { port } = closed.address() as { port: number };
        await new Promise((resolve) => closed.close(resolve));
        return `http://127.0.0.1:${port}/schema.json`;
      },
      /ECONNREFUSED/,
    ],
  ])("with no copy anywhere (%s), fails in one line saying how to provide one", async (_label, address, reason) => {
    const cacheDir = freshDir("cache");
    const file: PinnedFile = { name: "rev/schema.json", source: await address(), sha256: sha256Hex(SCHEMA) };
    const failure = await resolvePinned(file, { schemaDir: undefined, cacheDir }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SourcesUnavailable);
    const message = (failure as Error).message;
    expect(message).not.toContain("\n");
    expect(message).toMatch(reason);
    expect(message).toContain("rev/schema.json");
    expect(message).toContain("MCP_SCHEMA_DIR is not set");
    expect(message).toContain(`the cache (${cacheDir}) has no copy`);
    expect(message).toContain("set MCP_SCHEMA_DIR");
    expect(message).toContain("npm run schema:fetch");
  });
});

describe("resolveAll", () => {
  it("resolves every file in order", async () => {
    served.set("/rev/schema.json", SCHEMA);
    served.set("/rev/examples/Thing/one.json", EXAMPLE);
    const files = [pin("rev/schema.json", "/rev/schema.json", SCHEMA), pin("rev/examples/Thing/one.json", "/rev/examples/Thing/one.json", EXAMPLE)];
    const resolved = await resolveAll(files, { schemaDir: undefined, cacheDir: freshDir("cache") });
    expect(resolved.map((file) => file.bytes)).toEqual([SCHEMA, EXAMPLE]);
  });

  it("makes one attempt, not one per file, when nothing is reachable", async () => {
    const files = Array.from({ length: 20 }, (_, i) => pin(`rev/examples/Thing/${i}.json`, `/rev/examples/Thing/${i}.json`, Buffer.from(String(i))));
    await expect(resolveAll(files, { schemaDir: undefined, cacheDir: freshDir("cache") })).rejects.toThrow(SourcesUnavailable);
    expect(requests).toEqual(["/rev/examples/Thing/0.json"]);
  });
});

describe("defaultCacheDir", () => {
  it("is MCP_SCHEMA_CACHE_DIR when set, else mcp-roundtrip/schema under the user cache directory", () => {
    expect(defaultCacheDir({ MCP_SCHEMA_CACHE_DIR: "/tmp/elsewhere" })).toBe("/tmp/elsewhere");
    if (process.platform === "linux") expect(defaultCacheDir({ XDG_CACHE_HOME: "/var/cache/me" })).toBe("/var/cache/me/mcp-roundtrip/schema");
    expect(defaultCacheDir({})).toMatch(/mcp-roundtrip[\\/]schema$/);
  });
});

describe("npm run schema:fetch", () => {
  /** A scratch clone whose sources.json pins one revision with a schema and one example on the fake upstream. */
  function scratchClone() {
    const root = freshDir("clone");
    mkdirSync(join(root, "schema"));
    writeFileSync(
      join(root, "schema", "sources.json"),
      JSON.stringify({
        defaultRevision: "rev",
        revisions: {
          rev: {
            schema: { source: `${base}/up/rev/schema.json`, sha256: sha256Hex(SCHEMA) },
            examples: { source: `${base}/up/rev/examples/`, files: { "Thing/one.json": sha256Hex(EXAMPLE) } },
          },
        },
      }),
    );
    return root;
  }

  /** Runs fetchMain() capturing what it prints. */
  async function runFetch(root: string, argv: string[] = []) {
    const out: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((...parts) => void out.push(parts.join(" ")));
    const error = vi.spyOn(console, "error").mockImplementation((...parts) => void out.push(parts.join(" ")));
    try {
      return { code: await fetchMain(root, argv), output: out.join("\n") };
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  }

  it("downloads every pinned file into the cache, then finds them there", async () => {
    served.set("/up/rev/schema.json", SCHEMA);
    served.set("/up/rev/examples/Thing/one.json", EXAMPLE);
    const root = scratchClone();
    const cacheDir = freshDir("cache");
    vi.stubEnv("MCP_SCHEMA_DIR", "");
    vi.stubEnv("MCP_SCHEMA_CACHE_DIR", cacheDir);
    const first = await runFetch(root);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain("2 files of rev checked and cached");
    expect(first.output).toContain("2 downloaded");
    expect(requests.sort()).toEqual(["/up/rev/examples/Thing/one.json", "/up/rev/schema.json"]);
    expect(readFileSync(cachePath(cacheDir, sha256Hex(EXAMPLE)))).toEqual(EXAMPLE);
    served.clear();
    const second = await runFetch(root);
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain("2 already there");
  });

  it("exits 1 with one line when a file cannot be had", async () => {
    vi.stubEnv("MCP_SCHEMA_DIR", "");
    vi.stubEnv("MCP_SCHEMA_CACHE_DIR", freshDir("cache"));
    const { code, output } = await runFetch(scratchClone());
    expect(code).toBe(1);
    expect(output.split("\n")).toHaveLength(1);
    expect(output).toMatch(/^schema:fetch: cannot find rev\/schema\.json .*HTTP 404.*npm run schema:fetch/);
  });

  it("rejects an unknown flag with usage", async () => {
    const { code, output } = await runFetch(scratchClone(), ["--frobnicate"]);
    expect(code).toBe(2);
    expect(output).toContain("usage: npm run schema:fetch");
  });
});

describe("schema/sources.json", () => {
  const root = () => {
    const dir = freshDir("sources");
    mkdirSync(join(dir, "schema"));
    return dir;
  };

  it.each(PINNED_REVISIONS)("pins every file of %s to the specification repository at one commit (a local path is for local work only)", (revision) => {
    const repo = REPO_ROOT;
    const files = allPinnedFiles(repo, readSources(repo), [revision]);
    if (revision === "2026-07-28") expect(files).toHaveLength(1 + 129);
    for (const file of files) {
      expect(file.source).toMatch(/^https:\/\/raw\.githubusercontent\.com\/modelcontextprotocol\/modelcontextprotocol\/[0-9a-f]{40}\/schema\//);
      expect(file.source.endsWith(`/schema/${file.name}`)).toBe(true);
    }
    expect(new Set(files.map((file) => file.source.split("/")[5])).size).toBe(1);
  });

  it.each([
    [
      "an old string pin",
      { defaultRevision: "r", revisions: { r: { schema: "../x/schema.json", sha256: "0".repeat(64) } } },
      /revisions\["r"\]\.schema: expected \{ source/,
    ],
    ["a short digest", { defaultRevision: "r", revisions: { r: { schema: { source: "x", sha256: "abc" } } } }, /revisions\["r"\]\.schema/],
    [
      "an example name that climbs out",
      {
        defaultRevision: "r",
        revisions: { r: { schema: { source: "x", sha256: "0".repeat(64) }, examples: { source: "e/", files: { "../up.json": "0".repeat(64) } } } },
      },
      /"\.\.\/up\.json"/,
    ],
    ["a default revision that is not pinned", { defaultRevision: "q", revisions: { r: { schema: { source: "x", sha256: "0".repeat(64) } } } }, /defaultRevision q/],
  ])("refuses %s, naming the member", (_label, content, message) => {
    const dir = root();
    writeFileSync(join(dir, "schema", "sources.json"), JSON.stringify(content));
    expect(() => readSources(dir)).toThrow(message);
  });

  it.each([
    ["a URL", "https://example.com/schema.json", "https://example.com/schema.json"],
    ["a path inside the repository, relative to its root", "/repo/schema/next.json", "schema/next.json"],
    ["a path outside it, absolute", "/elsewhere/schema.json", "/elsewhere/schema.json"],
  ])("records %s as the source", (_label, location, recorded) => {
    expect(recordedSource("/repo", location)).toBe(recorded);
  });
});
