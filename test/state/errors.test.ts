import { describe, expect, it } from "vitest";
import { MIN_SECRET_BYTES, RequestStateSecurity } from "../../runtime/state/index.js";
import { rejectionOf } from "./helpers.js";

const GOOD = "g".repeat(32);
const HOW_TO = "randomBytes(32).toString('base64url')";

/** Calls `make` and returns the error it threw. */
function errorOf(make: () => unknown): Error {
  try {
    make();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

describe("key validation", () => {
  const cases: [string, unknown, ErrorConstructor, RegExp][] = [
    ["a short string key", ["short-secret"], RangeError, /keys\[0\] expected at least 32 bytes, got 12 bytes of UTF-8 text/],
    ["a short byte key", [new Uint8Array(16)], RangeError, /keys\[0\] expected at least 32 bytes, got 16 bytes/],
    ["a short second key", [GOOD, "x".repeat(31)], RangeError, /keys\[1\] expected at least 32 bytes, got 31/],
    ["an empty string", [""], RangeError, /got 0 bytes/],
    ["an empty ring", [], RangeError, /"keys" is empty/],
    ["a number", [12345], TypeError, /keys\[0\] expected Uint8Array or string, got a number/],
    ["an ArrayBuffer", [new ArrayBuffer(32)], TypeError, /ArrayBuffer \(wrap it in new Uint8Array/],
    ["null", [null], TypeError, /keys\[0\] expected Uint8Array or string, got null/],
    ["a bare string instead of an array", GOOD, TypeError, /"keys" expected an array/],
    ["a duplicate key", [GOOD, "h".repeat(40), GOOD], RangeError, /keys\[2\] repeats keys\[0\]/],
    ["the same key as text and as bytes", [GOOD, new TextEncoder().encode(GOOD)], RangeError, /keys\[1\] repeats keys\[0\]/],
  ];

  it.each(cases)("%s is refused at construction with a hint on making a key", (_, keys, type, message) => {
    const error = errorOf(() => new RequestStateSecurity({ keys } as never));
    expect(error).toBeInstanceOf(type);
    expect(error.message).toMatch(message);
    expect(error.message).toContain(HOW_TO);
  });

  it("errors never include the key material", () => {
    const secret = "0123456789abcdef0123456789abcde"; // 31 bytes
    expect(errorOf(() => new RequestStateSecurity({ keys: [secret] })).message).not.toContain(secret);
    expect(errorOf(() => new RequestStateSecurity({ keys: [GOOD, GOOD] })).message).not.toContain(GOOD);
  });

  it("a 32-byte secret is enough; the minimum is exported", () => {
    expect(MIN_SECRET_BYTES).toBe(32);
    expect(() => new RequestStateSecurity({ keys: [new Uint8Array(32)] })).not.toThrow();
    expect(() => new RequestStateSecurity({ keys: ["é".repeat(16)] })).not.toThrow(); // 32 UTF-8 bytes
  });
});

describe("construction errors", () => {
  const codec = { seal: (): string => "t", unseal: (): Uint8Array => new Uint8Array() };
  const cases: [string, unknown, ErrorConstructor, RegExp][] = [
    ["neither keys nor codec", {}, TypeError, /exactly one of "keys" or "codec", got neither/],
    ["both keys and codec", { keys: [GOOD], codec }, TypeError, /got both/],
    ["no argument", undefined, TypeError, /expected \{ keys \} or \{ codec \}/],
    ["a codec without unseal", { codec: { seal: (): string => "t" } }, TypeError, /"codec" expected an object with seal/],
    ["a zero ttl", { keys: [GOOD], ttl: 0 }, RangeError, /"ttl" expected a positive number/],
    ["an infinite ttl", { keys: [GOOD], ttl: Infinity }, RangeError, /"ttl"/],
    ["a string ttl", { keys: [GOOD], ttl: "600" }, RangeError, /"ttl"/],
    ["a fractional maxStateBytes", { keys: [GOOD], maxStateBytes: 1.5 }, RangeError, /"maxStateBytes" expected a positive integer/],
    ["an empty audience", { keys: [GOOD], audience: "" }, TypeError, /"audience" expected a non-empty string/],
    ["a non-function bindPrincipal", { keys: [GOOD], bindPrincipal: "sub" }, TypeError, /"bindPrincipal" expected a function/],
    ["a replay store without claim", { keys: [GOOD], replay: {} }, TypeError, /"replay" expected an object with a claim/],
    ["a logger without warn", { keys: [GOOD], logger: console.log }, TypeError, /"logger" expected an object with a warn/],
    ["an unknown crypto backend", { keys: [GOOD], crypto: "openssl" }, RangeError, /crypto must be "auto", "node" or "noble"/],
  ];
  it.each(cases)("%s", (_, source, type, message) => {
    const error = errorOf(() => new RequestStateSecurity(source as never));
    expect(error).toBeInstanceOf(type);
    expect(error.message).toMatch(message);
  });

  it("options may come in the first object or the second", async () => {
    const a = new RequestStateSecurity({ keys: [GOOD], ttl: 5, audience: "svc" });
    const b = new RequestStateSecurity({ keys: [GOOD] }, { ttl: 5, audience: "svc" });
    expect([a.ttl, a.audience]).toEqual([5, "svc"]);
    expect([b.ttl, b.audience]).toEqual([5, "svc"]);
    expect(b.maxStateBytes).toBe(65536);
  });
});

describe("misuse of mint and verify", () => {
  const security = new RequestStateSecurity({ keys: [GOOD] }, { logger: { warn() {} } });
  it.each([
    ["no method", { target: "t", state: "s" }, /"method" to be a string/],
    ["a numeric target", { method: "tools/call", target: 1, state: "s" }, /"target" to be a string/],
    ["an object state", { method: "tools/call", target: "t", state: { step: 1 } }, /"state" to be a string/],
    ["a function argument", { method: "tools/call", target: "t", state: "s", arguments: { f: () => 1 } }, /JSON values/],
    [
      "a cyclic argument",
      (() => {
        const a: Record<string, unknown> = {};
        a.self = a;
        return { method: "tools/call", target: "t", state: "s", arguments: a };
      })(),
      /cycle/,
    ],
    [
      "arguments nested 1100 deep",
      { method: "tools/call", target: "t", state: "s", arguments: JSON.parse("[".repeat(1100) + "]".repeat(1100)) },
      /nested at most 1000/,
    ],
    ["a numeric principal", { method: "tools/call", target: "t", state: "s", principal: 7 }, /"principal" to be a string/],
  ])("mint with %s throws a TypeError", async (_, input, message) => {
    await expect(security.mint(input as never)).rejects.toThrow(TypeError);
    await expect(security.mint(input as never)).rejects.toThrow(message);
  });

  it("a clock in milliseconds is caught at mint", async () => {
    const misconfigured = new RequestStateSecurity({ keys: [GOOD] }, { now: () => Date.now() });
    await expect(misconfigured.mint({ method: "tools/call", target: "t", state: "s" })).rejects.toThrow(/seconds/);
  });

  it("verify with a bad binding throws a TypeError (a server bug, not a rejection)", async () => {
    await expect(security.verify("v1.x", { method: "tools/call" } as never)).rejects.toThrow(TypeError);
    await expect(security.verify("v1.x", null as never)).rejects.toThrow(TypeError);
  });

  it("verify with arguments that cannot be digested rejects instead of crashing", async () => {
    const token = await security.mint({ method: "tools/call", target: "t", state: "s" });
    await rejectionOf(security.verify(token, { method: "tools/call", target: "t", arguments: { f: Symbol("x") } }));
  });
});

describe("RequestStateSecurity.ephemeral", () => {
  it("mints and verifies with no configuration and no audience", async () => {
    const security = RequestStateSecurity.ephemeral();
    const token = await security.mint({ method: "tools/call", target: "t", state: "s" });
    await expect(security.verify(token, { method: "tools/call", target: "t" })).resolves.toBe("s");
    expect(security.audience).toBeUndefined();
  });

  it("its key dies with the instance: another process cannot verify", async () => {
    const one = RequestStateSecurity.ephemeral();
    const other = RequestStateSecurity.ephemeral({ logger: { warn() {} } });
    const token = await one.mint({ method: "tools/call", target: "t", state: "s" });
    await rejectionOf(other.verify(token, { method: "tools/call", target: "t" }));
  });

  it("takes the usual policy options", () => {
    expect(RequestStateSecurity.ephemeral({ ttl: 30, crypto: "noble" })).toMatchObject({ ttl: 30, crypto: "noble" });
  });
});
