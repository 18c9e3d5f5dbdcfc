// The official SDK 2.4.0 server (McpServer through createMcpHandler) sealing
// its requestState with our codec, behind node:http on 127.0.0.1. The caller's
// identity comes from the path (/as/<subject>/mcp), standing in for a bearer
// verifier, so tests can present one token as two principals.
import { createServer, type Server as NodeServer } from "node:http";
import { McpServer as OfficialMcpServer, acceptedContent, createMcpHandler, fromJsonSchema, inputRequired, type AuthInfo } from "@modelcontextprotocol/server";
import { createSealedRequestStateCodec, RequestStateSecurity, type SealedRequestStateCodec } from "mcp-roundtrip/ext/official";
import type { RequestStateRejection } from "mcp-roundtrip/server";
import { bridge } from "../interop/peers.js";

export const SECRET = "official-codec-test-secret-0123456789abcdef";
/** Sealed in every state: a test greps the wire for it. */
export const MARKER = "PAYLOAD-MARKER-7f3a";
export const CITY_SCHEMA = { type: "object" as const, properties: { city: { type: "string" as const } }, required: ["city"] };
const TEXT_ARGS = { type: "object" as const, properties: { text: { type: "string" as const } }, required: ["text"] };

/** The state every round seals. */
export interface RoundState {
  text: string;
  marker: string;
}

export interface Fixture {
  /** `http://127.0.0.1:<port>/as/<subject>/mcp`; no subject: unauthenticated. */
  url(subject?: string): string;
  codec: SealedRequestStateCodec<RoundState>;
  security: RequestStateSecurity;
  /** Rejections with their real reason, from the security's logger and the codec's. */
  rejections: RequestStateRejection[];
  /** What their server reported through onerror (never on the wire). */
  errors: string[];
  /** Seconds added to the clock of the security. */
  advance(seconds: number): void;
  close(): Promise<void>;
}

/** The principal their AuthInfo carries for a path's subject. */
export function authInfoOf(subject: string): AuthInfo {
  return { token: `token-of-${subject}`, clientId: "client-1", scopes: [], extra: { iss: "https://as.example", sub: subject } };
}

/** Serves the official McpServer with three MRTR surfaces (a tool, a prompt, a resource) under our codec. */
export async function startOfficialServer(audience = "weather-official"): Promise<Fixture> {
  let offset = 0;
  const rejections: RequestStateRejection[] = [];
  const errors: string[] = [];
  const logger = { warn: (_message: string, rejection: RequestStateRejection) => void rejections.push(rejection) };
  const security = new RequestStateSecurity({ keys: [SECRET] }, { logger, now: () => Date.now() / 1000 + offset });
  const codec = createSealedRequestStateCodec<RoundState>(security, { audience, logger });

  const ask = (message: string) => inputRequired.elicit({ message, requestedSchema: CITY_SCHEMA });
  const handler = codec.capture(
    createMcpHandler(
      () => {
        const server = new OfficialMcpServer({ name: "weather-official", version: "1.0.0" }, { requestState: { verify: codec.verify } });
        server.server.onerror = (error) => void errors.push(error.message);
        server.registerTool("forecast", { inputSchema: fromJsonSchema<{ text: string }>(TEXT_ARGS) }, async ({ text }, ctx) => {
          const answer = acceptedContent(ctx.mcpReq.inputResponses, "city") as { city?: string } | undefined;
          if (!answer?.city) {
            return inputRequired({
              inputRequests: { city: ask(`Which city for "${text}"?`) },
              requestState: await codec.mint({ text, marker: MARKER }, ctx),
            });
          }
          const state = ctx.mcpReq.requestState<RoundState>();
          return { content: [{ type: "text", text: `${state?.text} in ${answer.city}: sunny (${state?.marker === MARKER ? "sealed" : "lost"})` }] };
        });
        server.registerPrompt("brief", { argsSchema: fromJsonSchema<{ text: string }>(TEXT_ARGS) }, async ({ text }, ctx) => {
          const answer = acceptedContent(ctx.mcpReq.inputResponses, "city") as { city?: string } | undefined;
          if (!answer?.city) {
            return inputRequired({ inputRequests: { city: ask("Which city?") }, requestState: await codec.mint({ text, marker: MARKER }, ctx) });
          }
          const state = ctx.mcpReq.requestState<RoundState>();
          return { messages: [{ role: "user", content: { type: "text", text: `Brief ${state?.text} for ${answer.city}` } }] };
        });
        server.registerResource("today", "weather://today", {}, async (uri, ctx) => {
          const answer = acceptedContent(ctx.mcpReq.inputResponses, "city") as { city?: string } | undefined;
          if (!answer?.city) {
            return inputRequired({ inputRequests: { city: ask("Which city?") }, requestState: await codec.mint({ text: "today", marker: MARKER }, ctx) });
          }
          const state = ctx.mcpReq.requestState<RoundState>();
          return { contents: [{ uri: uri.href, text: `${state?.text} in ${answer.city}` }] };
        });
        return server;
      },
      { onerror: (error) => void errors.push(error.message) },
    ),
  );

  const server: NodeServer = createServer(
    bridge((request: Request) => {
      const subject = /^\/as\/([^/]+)\//.exec(new URL(request.url).pathname)?.[1];
      return handler.fetch(request, subject === undefined ? undefined : { authInfo: authInfoOf(subject) });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: (subject) => `http://127.0.0.1:${port}${subject === undefined ? "" : `/as/${subject}`}/mcp`,
    codec,
    security,
    rejections,
    errors,
    advance: (seconds) => void (offset += seconds),
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** The bytes inside a v1 token (kid ‖ nonce ‖ ciphertext ‖ tag), as latin1 text for grepping. */
export function tokenBytes(token: string): string {
  return Buffer.from(token.slice(3), "base64url").toString("latin1");
}
