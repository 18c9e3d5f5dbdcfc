// Key rings from the environment and from files: every entry names its
// encoding, a bare string is refused with the format, and key ids computed
// from the outside (keyIdOf) are the ones the codec writes into tokens.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { decodeKeyEntry, keyIdOf } from "mcp-roundtrip/state";
import { RequestStateSecurity, type RequestStateLogger, type RequestStateRingInfo } from "mcp-roundtrip/server";
import vectors from "../vectors/request-state-v1.json" with { type: "json" };

const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g)!.map((pair) => parseInt(pair, 16)));
const KEY_A = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const KEY_B = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const VAR = "MCP_TEST_REQUEST_STATE_KEYS";

function ringLogger(): RequestStateLogger & { rings: RequestStateRingInfo[]; lines: string[] } {
  const rings: RequestStateRingInfo[] = [];
  const lines: string[] = [];
  return {
    rings,
    lines,
    warn: (message) => lines.push(message),
    info: (message, ring) => {
      lines.push(message);
      rings.push(ring);
    },
  };
}

afterEach(() => {
  delete process.env[VAR];
  delete process.env.MCP_REQUEST_STATE_KEYS;
});

describe("keyIdOf", () => {
  it.each(vectors.token_vectors.map((vector) => [vector.kid_hex, vector] as const))("matches the vector's key id %s", (kid, vector) => {
    expect(keyIdOf(hexBytes(vector.secret_hex))).toBe(kid);
    expect(keyIdOf(decodeKeyEntry(`hex:${vector.secret_hex}`))).toBe(kid);
    expect(keyIdOf(hexBytes(vector.secret_hex), { crypto: "noble" })).toBe(kid);
    if (vector.secret_is_utf8_text) expect(keyIdOf(Buffer.from(vector.secret_hex, "hex").toString("utf8"))).toBe(kid);
  });

  it("agrees with security.keyIds and with the first four bytes of every minted token", async () => {
    const security = new RequestStateSecurity({ keys: [KEY_A, KEY_B] }, { logger: ringLogger() });
    expect(security.keyIds).toEqual([keyIdOf(KEY_A), keyIdOf(KEY_B)]);
    const token = await security.mint({ method: "tools/call", target: "t", state: "s" });
    expect(Buffer.from(token.slice(3), "base64url").subarray(0, 4).toString("hex")).toBe(keyIdOf(KEY_A));
  });

  it("refuses short secrets and prefixed strings (which the codec would take as UTF-8)", () => {
    expect(() => keyIdOf(new Uint8Array(16))).toThrow(/at least 32 bytes.*npx mcp-roundtrip keygen/);
    expect(() => keyIdOf(`base64url:${b64url(KEY_A)}`)).toThrow(/decodeKeyEntry/);
    expect(() => new RequestStateSecurity({ keys: [`hex:${"ab".repeat(32)}`] })).toThrow(/encoded key entry.*fromEnv/);
  });
});

describe("decodeKeyEntry", () => {
  it.each([
    ["base64url", `base64url:${b64url(KEY_A)}`],
    ["base64url with padding", `base64url:${b64url(KEY_A)}=`],
    ["base64", `base64:${Buffer.from(KEY_A).toString("base64")}`],
    ["hex", `hex:${Buffer.from(KEY_A).toString("hex")}`],
    ["upper-case hex and prefix, spaces around", `  HEX:${Buffer.from(KEY_A).toString("hex").toUpperCase()} `],
  ])("decodes %s", (_name, entry) => {
    expect(decodeKeyEntry(entry)).toEqual(KEY_A);
  });

  it.each([
    [
      "a bare string",
      "this-is-a-long-secret-of-many-bytes-0123456789",
      /no encoding prefix; write each key as base64url:<key>, base64:<key> or hex:<key>.*npx mcp-roundtrip keygen/,
    ],
    ["an unknown prefix", "utf8:this-is-a-long-secret-of-many-bytes-0123456789", /no encoding prefix/],
    ["bad hex", `hex:${"zz".repeat(32)}`, /not valid hex text/],
    ["odd hex", `hex:${"a".repeat(65)}`, /not valid hex text/],
    ["bad base64", "base64:***", /not valid base64 text/],
    ["an empty body", "base64url:", /not valid base64url text/],
    ["a short key", `hex:${"ab".repeat(16)}`, /16 bytes; a key needs at least 32.*npx mcp-roundtrip keygen/],
  ])("refuses %s and never echoes it", (_name, entry, message) => {
    let error: unknown;
    try {
      decodeKeyEntry(entry, "MCP_REQUEST_STATE_KEYS entry 1");
    } catch (caught) {
      error = caught;
    }
    expect(String(error)).toMatch(message);
    expect(String(error)).toMatch(/MCP_REQUEST_STATE_KEYS entry 1/);
    const body = entry.slice(entry.indexOf(":") + 1).trim();
    if (body.length > 8) expect(String(error)).not.toContain(body);
  });
});

describe("RequestStateSecurity.fromEnv", () => {
  it("reads MCP_REQUEST_STATE_KEYS by default, comma- or newline-separated, the first entry minting", async () => {
    process.env.MCP_REQUEST_STATE_KEYS = ` base64url:${b64url(KEY_B)},\nhex:${Buffer.from(KEY_A).toString("hex")}\n`;
    const logger = ringLogger();
    const security = RequestStateSecurity.fromEnv(undefined, { audience: "fleet-test", logger });
    expect(security.keyIds).toEqual([keyIdOf(KEY_B), keyIdOf(KEY_A)]);
    const older = new RequestStateSecurity({ keys: [KEY_A] }, { audience: "fleet-test", logger });
    const token = await older.mint({ method: "tools/call", target: "t", state: "from-old" });
    await expect(security.verify(token, { method: "tools/call", target: "t" })).resolves.toBe("from-old");
  });

  it("logs the ring once at construction through info (key ids only)", () => {
    process.env[VAR] = `base64url:${b64url(KEY_A)},base64url:${b64url(KEY_B)}`;
    const logger = ringLogger();
    RequestStateSecurity.fromEnv(VAR, { audience: "fleet-test", ttl: 120, logger });
    expect(logger.rings).toEqual([{ keyIds: [keyIdOf(KEY_A), keyIdOf(KEY_B)], mintingKeyId: keyIdOf(KEY_A), audience: "fleet-test", ttl: 120 }]);
    expect(logger.lines).toEqual([
      `requestState key ring: mints with ${keyIdOf(KEY_A)}; verifies ${keyIdOf(KEY_A)}, ${keyIdOf(KEY_B)}, audience "fleet-test", ttl 120 s`,
    ]);
    expect(logger.lines[0]).not.toContain(b64url(KEY_A));
  });

  it("logs nothing at start for a logger without info, or an ephemeral key", () => {
    const lines: string[] = [];
    new RequestStateSecurity({ keys: [KEY_A] }, { logger: { warn: (message) => lines.push(message) } });
    const logger = ringLogger();
    RequestStateSecurity.ephemeral({ logger });
    expect(lines).toEqual([]);
    expect(logger.lines).toEqual([]);
  });

  it("says what to set when the variable is missing, and never prints a bare key", () => {
    expect(() => RequestStateSecurity.fromEnv(VAR)).toThrow(new RegExp(`${VAR} is not set; set it to the key ring, e\\.g\\. ${VAR}=base64url:<key>`));
    process.env[VAR] = "   ";
    expect(() => RequestStateSecurity.fromEnv(VAR)).toThrow(/is not set/);
    process.env[VAR] = "a-raw-utf8-secret-that-someone-pasted-in-0123";
    expect(() => RequestStateSecurity.fromEnv(VAR)).toThrow(new RegExp(`${VAR} entry 1 has no encoding prefix`));
    try {
      RequestStateSecurity.fromEnv(VAR);
    } catch (error) {
      expect(String(error)).not.toContain("a-raw-utf8-secret");
    }
    process.env[VAR] = `base64url:${b64url(KEY_A)},oops`;
    expect(() => RequestStateSecurity.fromEnv(VAR)).toThrow(/entry 2 has no encoding prefix/);
  });
});

describe("RequestStateSecurity.fromFile", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-keys-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads one entry per line, skipping blank lines and # comments", async () => {
    const path = join(dir, "keys");
    writeFileSync(path, `# minting key first\nbase64url:${b64url(KEY_A)}\n\n# the one being retired\nbase64:${Buffer.from(KEY_B).toString("base64")}\n`);
    const security = await RequestStateSecurity.fromFile(path, { logger: ringLogger() });
    expect(security.keyIds).toEqual([keyIdOf(KEY_A), keyIdOf(KEY_B)]);
  });

  it("names the path when it cannot read it, and refuses an empty file", async () => {
    await expect(RequestStateSecurity.fromFile(join(dir, "missing"))).rejects.toThrow(/could not read the key file .*missing \(ENOENT\)/);
    const empty = join(dir, "empty");
    writeFileSync(empty, "# nothing yet\n");
    await expect(RequestStateSecurity.fromFile(empty)).rejects.toThrow(/holds no keys/);
  });
});
