// codec.capture: reads each JSON body once and hands it on as parsedBody;
// leaves everything it does not capture exactly as the handler would see it.
import { describe, expect, it } from "vitest";
import { createSealedRequestStateCodec, RequestStateSecurity, type FetchHandlerOptions, type OfficialRequestContext } from "mcp-roundtrip/ext/official";

const codec = createSealedRequestStateCodec(RequestStateSecurity.ephemeral(), { audience: "capture", logger: { warn() {} } });
const JSON_HEADERS = { "content-type": "application/json" };

/** A fetch handler that records what it was given and reads the body it got. */
function recorder() {
  const seen: { request: Request; options: FetchHandlerOptions | undefined; text: string }[] = [];
  const handler = async (request: Request, options?: FetchHandlerOptions) => {
    const text = options?.parsedBody === undefined && !request.bodyUsed && request.body !== null ? await request.text() : "";
    seen.push({ request, options, text });
    return new Response("ok");
  };
  return { seen, handler };
}

const post = (body: BodyInit, headers: Record<string, string> = JSON_HEADERS) =>
  new Request("http://localhost/mcp", { method: "POST", headers, body, duplex: "half" } as RequestInit);
const call = (id: number, name = "a") => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: { id } } });
const ctxOf = (request: Request, id: number): OfficialRequestContext => ({ mcpReq: { id, method: "tools/call" }, http: { req: request } });
/** True when the codec can bind the request `ctx` serves (mint succeeds). */
const canMint = (ctx: OfficialRequestContext) =>
  codec.mint(1, ctx).then(
    () => true,
    () => false,
  );

describe("codec.capture", () => {
  it("parses a JSON body once, passes the same Request on with parsedBody, and keeps authInfo", async () => {
    const { seen, handler } = recorder();
    const request = post(JSON.stringify(call(1)));
    await codec.capture(handler)(request, { authInfo: { clientId: "c" } });
    expect(seen[0]!.request).toBe(request);
    expect(seen[0]!.options).toEqual({ authInfo: { clientId: "c" }, parsedBody: call(1) });
    expect(await canMint(ctxOf(request, 1))).toBe(true);
  });

  it("remembers a parsedBody it is given, reading nothing", async () => {
    const { seen, handler } = recorder();
    const request = post(JSON.stringify(call(2)));
    await codec.capture(handler)(request, { parsedBody: call(2) });
    expect(request.bodyUsed).toBe(false);
    expect(seen[0]!.options).toEqual({ parsedBody: call(2) });
    expect(await canMint(ctxOf(request, 2))).toBe(true);
  });

  it("finds a message of a batch by id and method; refuses a batch where two share an id", async () => {
    const { handler } = recorder();
    const batch = post(JSON.stringify([call(3, "x"), call(4, "y")]));
    await codec.capture(handler)(batch);
    expect(await canMint(ctxOf(batch, 4))).toBe(true);
    expect(await canMint(ctxOf(batch, 5))).toBe(false);
    const twins = post(JSON.stringify([call(6, "x"), call(6, "y")]));
    await codec.capture(handler)(twins);
    expect(await canMint(ctxOf(twins, 6))).toBe(false);
  });

  it("hands on a body that is not JSON, byte for byte, for the handler's own parse error", async () => {
    const { seen, handler } = recorder();
    const request = post("{not json");
    await codec.capture(handler)(request);
    expect(seen[0]!.text).toBe("{not json");
    expect(seen[0]!.options?.parsedBody).toBeUndefined();
    expect(await canMint(ctxOf(seen[0]!.request, 1))).toBe(false);
  });

  it("leaves GET, other content types and bodies over the limit to the handler", async () => {
    const { seen, handler } = recorder();
    const captured = codec.capture(handler, { maxRequestBodySize: 64 });
    const get = new Request("http://localhost/mcp", { method: "GET" });
    await captured(get);
    expect(seen[0]!.request).toBe(get);
    await captured(post(JSON.stringify(call(7)), { "content-type": "text/plain" }));
    expect(seen[1]!.text).toBe(JSON.stringify(call(7)));
    const big = JSON.stringify({ ...call(8), padding: "x".repeat(200) });
    await captured(post(big, { ...JSON_HEADERS, "content-length": String(big.length) }));
    expect(seen[2]!.text).toBe(big);
    // Streamed without a length: read up to the limit, then replayed whole.
    const chunks = [big.slice(0, 50), big.slice(50, 120), big.slice(120)];
    const stream = new ReadableStream({
      start: (c) => {
        for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
        c.close();
      },
    });
    await captured(post(stream));
    expect(seen[3]!.text).toBe(big);
    expect(seen[3]!.options?.parsedBody).toBeUndefined();
  });

  it("hands on a body that fails mid-read as one that fails for the handler", async () => {
    const failing = new ReadableStream({ pull: (c) => c.error(new Error("reset by peer")) });
    let failure: unknown;
    await codec.capture(async (request: Request) => {
      failure = await request.text().catch((error: unknown) => error);
      return new Response(null, { status: 400 });
    })(post(failing));
    expect((failure as Error).message).toBe("reset by peer");
  });

  it("wraps createMcpHandler's object: a copy with fetch wrapped and the rest kept", async () => {
    const { seen, handler } = recorder();
    const original = { fetch: handler, close: async () => {}, notify: { marker: 1 } };
    const captured = codec.capture(original);
    expect(captured).not.toBe(original);
    expect(original.fetch).toBe(handler);
    expect(captured.close).toBe(original.close);
    expect(captured.notify).toBe(original.notify);
    await captured.fetch(post(JSON.stringify(call(9))));
    expect(seen[0]!.options?.parsedBody).toEqual(call(9));
  });

  it("throws for what it cannot wrap or a bad limit", () => {
    expect(() => codec.capture({} as never)).toThrow(/createMcpHandler/);
    expect(() => codec.capture(async () => new Response(), { maxRequestBodySize: 0 })).toThrow(RangeError);
  });
});
