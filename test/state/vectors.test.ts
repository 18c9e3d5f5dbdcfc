import { describe, expect, it } from "vitest";
import { __TESTS } from "../../runtime/state/token/testing.js";
import { RequestStateSecurity } from "../../runtime/state/index.js";
import { BACKENDS, hex, toHex, vectors } from "./helpers.js";

/** A vector's secret in the form a user would pass it: text when it is UTF-8 text. */
const secretOf = (vector: { secret_hex: string; secret_is_utf8_text: boolean }) =>
  vector.secret_is_utf8_text ? Buffer.from(vector.secret_hex, "hex").toString("utf8") : hex(vector.secret_hex);

describe.each(BACKENDS)("known-answer vectors on the %s backend", (backend) => {
  it.each(vectors.token_vectors.map((v, i) => [i, v] as const))("token vector %i: key, key id and token", (_, vector) => {
    expect(__TESTS.deriveKey(secretOf(vector), backend)).toEqual({
      keyHex: vector.derived_key_hex,
      kidHex: vector.kid_hex,
    });
    expect(__TESTS.sealWithNonce(secretOf(vector), hex(vector.nonce_hex), hex(vector.payload_hex), backend)).toBe(vector.token);
  });

  it.each(vectors.token_vectors.map((v, i) => [i, v] as const))("token vector %i: unseals to the payload", async (_, vector) => {
    const security = new RequestStateSecurity({ keys: [secretOf(vector)] }, { crypto: backend });
    expect(toHex(await security.codec.unseal(vector.token))).toBe(vector.payload_hex);
  });

  it("a string secret and its UTF-8 bytes are the same key", () => {
    const vector = vectors.token_vectors.find((v) => v.secret_is_utf8_text)!;
    expect(__TESTS.deriveKey(hex(vector.secret_hex), backend)).toEqual(__TESTS.deriveKey(secretOf(vector), backend));
  });

  it.each(vectors.argument_digests.map((d) => [d.canonical_json, d] as const))("arguments digest of %s", (_, vector) => {
    expect(__TESTS.canonicalJson(vector.arguments)).toBe(vector.canonical_json);
    expect(__TESTS.argumentsDigest(vector.arguments, backend)).toBe(vector.digest);
  });

  it("principal claim", () => {
    const { principal, salt_hex, claim } = vectors.principal_claim;
    expect(__TESTS.principalClaim(principal, hex(salt_hex), backend)).toBe(claim);
  });

  it("an envelope sealed by the independent implementation verifies through the public API", async () => {
    // Vectors whose payload is an envelope: {"v":1,"iat":1767225600.0,"exp":1767226200.0,"m":"tools/call",
    // "t":"provision","a":<digest of {"name":"orders"}>,"s":"provision-v1","aud":"Provisioner"}.
    const sealed = vectors.token_vectors.filter((v) => Buffer.from(v.payload_hex, "hex").toString().startsWith("{"));
    expect(sealed.length).toBeGreaterThan(0);
    for (const vector of sealed) {
      const security = new RequestStateSecurity({ keys: [secretOf(vector)] }, { crypto: backend, audience: "Provisioner", now: () => 1767225700 });
      const binding = { method: "tools/call", target: "provision", arguments: { name: "orders" } };
      await expect(security.verify(vector.token, binding)).resolves.toBe("provision-v1");
    }
  });
});

describe.each(BACKENDS)("authentic tokens that carry no envelope (%s backend)", (backend) => {
  it("are rejected as malformed, never crash", async () => {
    const bare = vectors.token_vectors.filter((v) => !Buffer.from(v.payload_hex, "hex").toString().startsWith("{"));
    expect(bare.length).toBeGreaterThan(0);
    for (const vector of bare) {
      const rejections: string[] = [];
      const security = new RequestStateSecurity({ keys: [secretOf(vector)] }, { crypto: backend, logger: { warn: (_, r) => rejections.push(r.reason) } });
      await expect(security.verify(vector.token, { method: "tools/call", target: "provision" })).rejects.toThrow("Invalid or expired requestState");
      expect(rejections).toEqual(["malformed_envelope"]);
    }
  });

  it("the envelope vector outside its window, or for other arguments, is rejected", async () => {
    const vector = vectors.token_vectors.find((v) => Buffer.from(v.payload_hex, "hex").toString().startsWith("{"))!;
    const binding = { method: "tools/call", target: "provision", arguments: { name: "orders" } };
    const at = (now: number, audience = "Provisioner") =>
      new RequestStateSecurity({ keys: [secretOf(vector)] }, { crypto: backend, audience, now: () => now, logger: { warn() {} } });
    await expect(at(1767226259.999).verify(vector.token, binding)).resolves.toBe("provision-v1"); // exp plus the 60 s skew
    await expect(at(1767226260).verify(vector.token, binding)).rejects.toThrow(); // ... is exclusive
    await expect(at(1767225539).verify(vector.token, binding)).rejects.toThrow(); // iat more than 60 s ahead
    await expect(at(1767225540).verify(vector.token, binding)).resolves.toBe("provision-v1");
    await expect(at(1767225700).verify(vector.token, { ...binding, arguments: { name: "users" } })).rejects.toThrow();
    await expect(at(1767225700, "Other").verify(vector.token, binding)).rejects.toThrow();
  });
});

describe("envelope layout", () => {
  it("mints the reference field order and compact JSON", async () => {
    let sealed: Uint8Array | undefined;
    const security = new RequestStateSecurity(
      {
        codec: {
          seal: (bytes) => {
            sealed = bytes;
            return "opaque";
          },
          unseal: () => sealed!,
        },
      },
      __TESTS.withRandom({ audience: "Provisioner", now: () => 1767225600 }, (n) => new Uint8Array(n).fill(1)),
    );
    await security.mint({
      method: "tools/call",
      target: "provision",
      arguments: { name: "orders" },
      principal: vectors.principal_claim.principal,
      state: "provision-v1",
    });
    const claim = __TESTS.principalClaim(vectors.principal_claim.principal, new Uint8Array(8).fill(1), "noble");
    expect(Buffer.from(sealed!).toString("utf8")).toBe(
      `{"v":1,"iat":1767225600,"exp":1767226200,"m":"tools/call","t":"provision","a":"cpW1mcFtGeM0ZPdUOr4a0A",` +
        `"s":"provision-v1","aud":"Provisioner","p":"${claim}"}`,
    );
  });

  it("both backends produce the same token for the same nonce", () => {
    const nonce = hex("000102030405060708090a0b");
    const payload = new TextEncoder().encode('{"v":1}');
    expect(__TESTS.sealWithNonce("k".repeat(32), nonce, payload, "node")).toBe(__TESTS.sealWithNonce("k".repeat(32), nonce, payload, "noble"));
  });
});
