// docs/official-sdk.md: a server built on the official SDK
// (@modelcontextprotocol/server 2.4.0), before and after swapping its HMAC
// requestState codec for mcp-roundtrip's sealed one. Same tool, same handler.
import {
  McpServer,
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  fromJsonSchema,
  inputRequired,
  type McpHttpHandler,
  type RequestStateCodec,
} from "@modelcontextprotocol/server";
import { createSealedRequestStateCodec, RequestStateSecurity } from "mcp-roundtrip/ext/official";

const CITY = { type: "object" as const, properties: { city: { type: "string" as const } }, required: ["city"] };
const TEXT = { type: "object" as const, properties: { text: { type: "string" as const } }, required: ["text"] };

/** What a round carries from the question to the answer. */
interface Pending {
  text: string;
}

/** The weather server, sealing its rounds with `codec`: theirs or ours, both are a `RequestStateCodec`. */
function weatherServer(codec: RequestStateCodec<Pending>): McpServer {
  const server = new McpServer({ name: "weather", version: "1.0.0" }, { requestState: { verify: codec.verify } });
  server.registerTool("forecast", { inputSchema: fromJsonSchema<{ text: string }>(TEXT) }, async ({ text }, ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, "city") as { city?: string } | undefined;
    if (!answer?.city) {
      return inputRequired({
        inputRequests: { city: inputRequired.elicit({ message: "Which city?", requestedSchema: CITY }) },
        requestState: await codec.mint({ text }, ctx),
      });
    }
    const { text: asked } = ctx.mcpReq.requestState<Pending>()!;
    return { content: [{ type: "text", text: `${asked} in ${answer.city}: sunny` }] };
  });
  return server;
}

/** Before: their HMAC codec. Signed, not encrypted; one key; bound to nothing unless you write `bind`. */
export function beforeHandler(stateKey: string): McpHttpHandler {
  const codec = createRequestStateCodec<Pending>({ key: stateKey });
  return createMcpHandler(() => weatherServer(codec));
}

/** After: our sealed codec. Encrypted; a key ring; bound to the call, the caller and the audience. */
export function afterHandler(stateKeys: string[]): McpHttpHandler {
  const codec = createSealedRequestStateCodec<Pending>(new RequestStateSecurity({ keys: stateKeys }), { audience: "weather" });
  return codec.capture(createMcpHandler(() => weatherServer(codec)));
}

/**
 * Rotating a key takes three deployments, each a full rollout: the first key
 * mints, every key verifies (found by key id). Wait one ttl before the last.
 */
export function rotationPhases(oldKey: string, newKey: string): RequestStateSecurity[] {
  return [
    new RequestStateSecurity({ keys: [oldKey, newKey] }), // 1: learn NEW
    new RequestStateSecurity({ keys: [newKey, oldKey] }), // 2: mint with NEW
    new RequestStateSecurity({ keys: [newKey] }), //         3: forget OLD
  ];
}

/** Behind a proxy that authenticates: bind to the user it vouches for instead of `ctx.http.authInfo`. */
export function behindProxy(stateKey: string): RequestStateCodec<Pending> {
  return createSealedRequestStateCodec<Pending>(new RequestStateSecurity({ keys: [stateKey] }), {
    audience: "weather",
    bindPrincipal: (ctx) => ctx.http?.req?.headers.get("x-authenticated-user") ?? undefined,
  });
}
