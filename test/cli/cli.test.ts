// The real bin (package.json "bin", built) in child processes: keygen's
// output loads with fromEnv, kid agrees with security.keyIds, inspect opens
// a token a running server minted, and each failure has its exit code.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type InputRequiredResult } from "mcp-roundtrip/client";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { inputRequired, McpServer, RequestStateSecurity } from "mcp-roundtrip/server";
import { keyIdOf } from "mcp-roundtrip/state";
import { ensureBuilt, root } from "../client/ensure-built.js";

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin: Record<string, string> };
const bin = join(root, pkg.bin["mcp-roundtrip"]!);

function cli(args: string[], env: Record<string, string> = {}, input?: string) {
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: "utf8", env: { ...process.env, ...env }, input });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(() => ensureBuilt("runtime/cli/main.js"), 180_000);

describe("npx mcp-roundtrip", () => {
  it("is the bin package.json names, and every command has --help", () => {
    expect(pkg.bin["mcp-roundtrip"]).toBe("./dist/runtime/cli/main.js");
    expect(readFileSync(bin, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    for (const command of [[], ["keygen"], ["kid"], ["inspect"], ["rotation-plan"]]) {
      const run = cli([...command, "--help"]);
      expect(run.code, command.join(" ")).toBe(0);
      expect(run.stdout).toMatch(/Usage: mcp-roundtrip/);
    }
  });

  it("answers bad usage with exit code 2 and a message on stderr", () => {
    expect(cli([]).code).toBe(2);
    expect(cli(["no-such-command"]).code).toBe(2);
    expect(cli(["kid"]).stderr).toMatch(/give at least one key/);
    const bare = cli(["kid", "a-bare-string-secret-of-enough-length-0123456789"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/no encoding prefix; write each key as base64url:<key>/);
    expect(bare.stderr).not.toContain("a-bare-string-secret");
    expect(cli(["keygen", "--encoding", "rot13"]).code).toBe(2);
    expect(cli(["rotation-plan"]).code).toBe(2);
    expect(cli(["inspect", "not-a-token"]).stderr).toMatch(/not a v1 token/);
  });

  it("keygen prints entries that fromEnv loads, and kid names them as security.keyIds does", () => {
    const generated = cli(["keygen", "--count", "2"]);
    expect(generated.code).toBe(0);
    const keys = generated.stdout.trim().split("\n");
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key).toMatch(/^base64url:[A-Za-z0-9_-]{43}$/);
    process.env.MCP_CLI_TEST_KEYS = keys.join(",");
    const security = RequestStateSecurity.fromEnv("MCP_CLI_TEST_KEYS", { logger: { warn: () => {} } });
    delete process.env.MCP_CLI_TEST_KEYS;
    // keygen's stderr names each key id; kid agrees, key by key and as a ring.
    expect(generated.stderr.trim().split("\n")).toEqual(security.keyIds.map((id) => `key id ${id}`));
    expect(
      cli(["kid", ...keys])
        .stdout.trim()
        .split("\n"),
    ).toEqual([...security.keyIds]);
    const ring = cli(["kid", "--keys-env", "RING"], { RING: keys.join("\n") });
    expect(ring.stdout).toBe(`${security.keyIds[0]}  mints and verifies\n${security.keyIds[1]}  verifies\n`);
    for (const encoding of ["hex", "base64"]) {
      const { key, keyId } = JSON.parse(cli(["keygen", "--json", "--encoding", encoding]).stdout) as { key: string; keyId: string };
      expect(key.startsWith(`${encoding}:`)).toBe(true);
      process.env.MCP_CLI_TEST_KEYS = key;
      expect(RequestStateSecurity.fromEnv("MCP_CLI_TEST_KEYS", { logger: { warn: () => {} } }).keyIds).toEqual([keyId]);
      delete process.env.MCP_CLI_TEST_KEYS;
      expect(cli(["kid", key]).stdout.trim()).toBe(keyId);
    }
  });

  it("rotation-plan prints the three ring values and waits ttl + skew before phase 3", () => {
    const [oldKey, newKey] = cli(["keygen", "--count", "2"]).stdout.trim().split("\n");
    const run = cli(["rotation-plan", "--ttl", "300", "--json"], { MCP_REQUEST_STATE_KEYS: oldKey! }); // --old from the variable
    expect(run.code).toBe(0);
    const plan = JSON.parse(run.stdout) as { phase: number; value: string; waitSeconds: number; mints: string; verifies: string[] }[];
    expect(plan.map((phase) => phase.phase)).toEqual([1, 2, 3]);
    expect(plan[0]!.value.startsWith(`MCP_REQUEST_STATE_KEYS=${oldKey},base64url:`)).toBe(true);
    const fresh = plan[0]!.value.split(",")[1]!;
    expect(plan[1]!.value).toBe(`MCP_REQUEST_STATE_KEYS=${fresh},${oldKey}`);
    expect(plan[2]!.value).toBe(`MCP_REQUEST_STATE_KEYS=${fresh}`);
    expect(plan.map((phase) => phase.waitSeconds)).toEqual([0, 360, 0]);
    expect(plan[1]!.mints).toBe(keyIdOf(Buffer.from(fresh.slice("base64url:".length), "base64url")));
    const text = cli(["rotation-plan", "--ttl", "60", "--skew", "5", "--old", oldKey!, "--new", newKey!]).stdout;
    expect(text).toContain("then wait 65 s (ttl + skew) before phase 3");
    expect(text).toContain(`MCP_REQUEST_STATE_KEYS=${newKey},${oldKey}`);
  });

  it("kid --utf8 gives the id of a raw string secret", () => {
    const secret = "fleet-secret-fleet-secret-fleet-secret!!";
    expect(cli(["kid", "--utf8", secret]).stdout.trim()).toBe(keyIdOf(secret));
  });
}, 60_000);

describe("inspect, on a token a running server minted", () => {
  const ring = cli(["keygen", "--count", "2"]).stdout.trim().split("\n");
  let handle: HttpServerHandle;
  let token: string;
  let security: RequestStateSecurity;

  beforeAll(async () => {
    process.env.MCP_CLI_INSPECT_KEYS = ring.join(",");
    security = RequestStateSecurity.fromEnv("MCP_CLI_INSPECT_KEYS", { audience: "cli-inspect", logger: { warn: () => {} } });
    delete process.env.MCP_CLI_INSPECT_KEYS;
    const server = new McpServer({ name: "cli-inspect", version: "1.0.0" }, { requestStateSecurity: security });
    server.tool("deploy", { inputSchema: { type: "object", properties: { app: { type: "string" } } } }, () =>
      inputRequired({
        inputRequests: { ok: { method: "elicitation/create", params: { mode: "form", message: "Deploy?", requestedSchema: { type: "object", properties: {} } } } },
        requestState: "step-2 of the deploy",
      }),
    );
    handle = await serveHttp(server);
    const client = await Client.connect(handle.url, { onElicit: async () => ({ action: "accept", content: {} }) });
    const first = (await client.session.callTool("deploy", { app: "shop" }, { allowInputRequired: true })) as InputRequiredResult;
    token = first.requestState!;
    await client.close();
  });
  afterAll(() => handle.close());

  it("shows format, key id and size without keys", () => {
    const run = cli(["inspect", token]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("format         v1");
    expect(run.stdout).toContain(`key id         ${security.keyIds[0]}`);
    expect(run.stdout).toContain(`size           ${token.length} bytes`);
    expect(run.stdout).not.toContain("deploy");
  });

  it("with the ring shows what the token is bound to, and the state only with --show-state", () => {
    const run = cli(["inspect", token, "--keys-env", "RING", "--json"], { RING: ring.join(",") });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { keyId: string; envelope: Record<string, unknown> };
    expect(report.keyId).toBe(security.keyIds[0]);
    expect(report.envelope).toMatchObject({
      method: "tools/call",
      target: "deploy",
      audience: "cli-inspect",
      principalBound: false,
      expired: false,
      stateBytes: 20,
    });
    expect(Date.parse(report.envelope.expiresAt as string) - Date.parse(report.envelope.issuedAt as string)).toBe(600_000);
    expect(report.envelope.state).toBeUndefined();
    const shown = cli(["inspect", "-", "--keys", ring.join(","), "--show-state"], {}, token);
    expect(shown.stdout).toContain("target         deploy");
    expect(shown.stdout).toContain("step-2 of the deploy");
    expect(cli(["inspect", token, "--show-state"]).code).toBe(2);
  });

  it("exits 3 for a ring without the token's key, and 4 for a tampered token", () => {
    const other = cli(["keygen"]).stdout.trim();
    const unknown = cli(["inspect", token, "--keys", other]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain(`key id ${security.keyIds[0]} is not in the ring`);
    const body = Buffer.from(token.slice(3), "base64url");
    body[body.length - 1]! ^= 1;
    const tampered = `v1.${body.toString("base64url")}`;
    expect(cli(["inspect", tampered, "--keys", ring.join(",")]).code).toBe(4);
  });
});
