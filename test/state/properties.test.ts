import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeBase64url, encodeBase64url } from "../../runtime/state/primitives/base64url.js";
import { __TESTS } from "../../runtime/state/token/testing.js";
import { InvalidRequestState, RequestStateSecurity } from "../../runtime/state/index.js";
import { BACKENDS, SECRET } from "./helpers.js";

const call = { method: "tools/call", target: "provision", arguments: { name: "orders" } };
const quiet = { warn() {} };

/** Resolves to true when `verify` rejected with InvalidRequestState; any other outcome fails. */
async function rejected(security: RequestStateSecurity, token: unknown): Promise<boolean> {
  try {
    await security.verify(token, call);
    return false;
  } catch (error) {
    if (error instanceof InvalidRequestState) return true;
    throw error;
  }
}

/** Random edits of a string: replace, insert or delete characters. */
const edits = fc.array(
  fc.record({
    kind: fc.constantFrom("replace", "insert", "delete"),
    at: fc.nat(),
    char: fc.constantFrom(..."ABCabc0189-_=+/. \u00e9\u0000"),
  }),
  { minLength: 1, maxLength: 4 },
);

function applyEdits(text: string, list: { kind: string; at: number; char: string }[]): string {
  let out = text;
  for (const { kind, at, char } of list) {
    const i = out.length === 0 ? 0 : at % (out.length + (kind === "insert" ? 1 : 0));
    if (kind === "replace") out = out.slice(0, i) + char + out.slice(i + 1);
    else if (kind === "insert") out = out.slice(0, i) + char + out.slice(i);
    else out = out.slice(0, i) + out.slice(i + 1);
  }
  return out;
}

describe.each(BACKENDS)("only the rejection, whatever arrives (%s backend)", (backend) => {
  const security = new RequestStateSecurity({ keys: [SECRET] }, { crypto: backend, logger: quiet });

  it("random strings", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.string({ unit: "binary" }),
          fc.string().map((s) => "v1." + s),
        ),
        (s) => rejected(security, s),
      ),
      { numRuns: 300 },
    );
  });

  it("random bytes behind the right prefix and key id", async () => {
    const kid = Buffer.from((await security.mint({ ...call, state: "x" })).slice(3), "base64url").subarray(0, 4);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), (bytes) => rejected(security, "v1." + Buffer.concat([kid, bytes]).toString("base64url"))),
      { numRuns: 300 },
    );
  });

  it("mutated tokens", async () => {
    const token = await security.mint({ ...call, state: "the state" });
    await fc.assert(
      fc.asyncProperty(edits, async (list) => {
        const mutated = applyEdits(token, list);
        fc.pre(mutated !== token);
        return rejected(security, mutated);
      }),
      { numRuns: 400 },
    );
  });

  it("any JSON value in place of the token", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), (value) => rejected(security, value)),
      { numRuns: 100 },
    );
  });
});

describe("backends agree", () => {
  it("the same secret, nonce and payload give the same token, and each opens the other's", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 32, maxLength: 64 }),
        fc.uint8Array({ minLength: 12, maxLength: 12 }),
        fc.uint8Array({ maxLength: 600 }),
        async (secret, nonce, payload) => {
          const fromNode = __TESTS.sealWithNonce(secret, nonce, payload, "node");
          expect(__TESTS.sealWithNonce(secret, nonce, payload, "noble")).toBe(fromNode);
          const noble = new RequestStateSecurity({ keys: [secret] }, { crypto: "noble" });
          const node = new RequestStateSecurity({ keys: [secret] }, { crypto: "node" });
          expect(Buffer.from(await noble.codec.unseal(fromNode))).toEqual(Buffer.from(payload));
          expect(Buffer.from(await node.codec.unseal(noble.codec.seal(payload) as string))).toEqual(Buffer.from(payload));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("envelopes minted on one backend verify on the other", async () => {
    const node = new RequestStateSecurity({ keys: [SECRET] }, { crypto: "node", audience: "a" });
    const noble = new RequestStateSecurity({ keys: [SECRET] }, { crypto: "noble", audience: "a" });
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.jsonValue(), fc.string(), async (state, args, principal) => {
        const binding = { ...call, arguments: args, principal };
        expect(await noble.verify(await node.mint({ ...binding, state }), binding)).toBe(state);
        expect(await node.verify(await noble.mint({ ...binding, state }), binding)).toBe(state);
      }),
      { numRuns: 100 },
    );
  });
});

describe("strict base64url", () => {
  it("round-trips bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = encodeBase64url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64url"));
        expect(decodeBase64url(text)).toEqual(bytes);
      }),
    );
  });

  it("accepts a string exactly when it is the canonical encoding of what it decodes to", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ ";
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 12 }), (text) => {
        const lenient = Buffer.from(text, "base64url");
        const canonical = lenient.toString("base64url") === text;
        const decoded = decodeBase64url(text);
        expect(decoded !== undefined).toBe(canonical);
        if (decoded) expect(Buffer.from(decoded)).toEqual(lenient);
      }),
      { numRuns: 2000 },
    );
  });
});

/** Python's json.dumps(sort_keys=True, separators=(",",":")), when python3 is installed. */
function pythonCanonical(values: unknown[]): string[] | undefined {
  const script =
    "import json,sys\n" + "for line in sys.stdin.read().splitlines():\n" + "    print(json.dumps(json.loads(line), sort_keys=True, separators=(',', ':')))\n";
  const run = spawnSync("python3", ["-c", script], {
    input: values.map((v) => JSON.stringify(v)).join("\n") + "\n",
    encoding: "utf8",
  });
  if (run.error || run.status !== 0) return undefined;
  return run.stdout.split("\n").slice(0, values.length);
}

const python = pythonCanonical([{}]) !== undefined;

describe("canonical JSON", () => {
  /** JSON values a JSON text can carry, minus the documented gaps (integral floats ≥ 1e21). */
  const wireJson = fc.jsonValue().filter((v) => !JSON.stringify(v).match(/e\+/));

  it("is printable ASCII, parses back to the input, and sorts keys by code point", () => {
    fc.assert(
      fc.property(wireJson, (value) => {
        const text = __TESTS.canonicalJson(value);
        expect(text).toMatch(/^[\x20-\x7e]*$/);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 500 },
    );
  });

  it("orders keys by code point, not UTF-16 unit", () => {
    // U+FF61 sorts before U+1F600 by code point but after it by UTF-16 unit (0xD83D).
    expect(__TESTS.canonicalJson({ "\u{1F600}": 1, "\uFF61": 2, a: 3 })).toBe('{"a":3,"\\uff61":2,"\\ud83d\\ude00":1}');
  });

  it("writes numbers as Python does", () => {
    expect(__TESTS.canonicalJson([0.00001, 1.5e-7, 0.0001, 1e21, 2 ** 53 + 2, -0, 12345678901234567890n, 0.1])).toBe(
      "[1e-05,1.5e-07,0.0001,1000000000000000000000,9007199254740994,0,12345678901234567890,0.1]",
    );
    expect(__TESTS.canonicalJson([NaN, Infinity, -Infinity])).toBe("[NaN,Infinity,-Infinity]");
  });

  it.runIf(python)("matches Python's json.dumps on random values", () => {
    const values = fc.sample(fc.oneof(wireJson, fc.dictionary(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }))), { numRuns: 400, seed: 7 });
    const expected = pythonCanonical(values)!;
    values.forEach((value, i) => {
      expect(__TESTS.canonicalJson(value)).toBe(expected[i]);
    });
  });
});

describe("SHA-256 on either backend", () => {
  it("matches node:crypto's createHash for every length around the block boundaries and random inputs", async () => {
    const { selectBackend } = await import("../../runtime/state/primitives/select-backend.js");
    const { sha256 } = await import("../../runtime/state/primitives/sha256.js");
    const { createHash } = await import("node:crypto");
    const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
    const hashers = [sha256, selectBackend("node").sha256, selectBackend("noble").sha256];
    for (let length = 0; length <= 200; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
      for (const hash of hashers) expect(Buffer.from(hash(bytes)).toString("hex")).toBe(digest(bytes));
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (bytes) => {
        for (const hash of hashers) expect(Buffer.from(hash(bytes)).toString("hex")).toBe(digest(bytes));
      }),
      { numRuns: 300 },
    );
  });
});

describe("the portable AES-256-GCM", () => {
  it("matches node:crypto's for random keys, nonces, associated data and payloads", async () => {
    const { NobleGcmKey } = await import("../../runtime/state/primitives/gcm-noble.js");
    const { createCipheriv } = await import("node:crypto");
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 12, maxLength: 12 }),
        fc.uint8Array({ maxLength: 40 }),
        fc.uint8Array({ maxLength: 700 }),
        fc.uint8Array({ maxLength: 19 }),
        (key, nonce, aad, plaintext, prefix) => {
          const cipher = createCipheriv("aes-256-gcm", key, nonce).setAAD(aad);
          const expected = Buffer.concat([prefix, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
          const gcm = new NobleGcmKey(key);
          const sealed = gcm.seal(nonce, aad, plaintext, prefix);
          expect(Buffer.from(sealed)).toEqual(expected);
          const opened = gcm.open(nonce, aad, sealed.subarray(prefix.length));
          expect(opened && Buffer.from(opened)).toEqual(Buffer.from(plaintext));
          // Any flipped bit, or other associated data, fails authentication.
          const tampered = Uint8Array.from(sealed.subarray(prefix.length));
          tampered[(plaintext.length * 7) % tampered.length]! ^= 0x10;
          expect(gcm.open(nonce, aad, tampered)).toBeUndefined();
          expect(gcm.open(nonce, Uint8Array.of(...aad, 0), sealed.subarray(prefix.length))).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });
});
