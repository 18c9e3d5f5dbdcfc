// The seed's provision tool on the low-level Server: it asks which region to
// use by returning an InputRequiredResult, and its requestState is sealed.
import type { ElicitResult, InputRequest } from "mcp-roundtrip/client";
import { RequestStateSecurity, Server, inputRequired, requestStateBoundary, type ServerHandlers, type ServerLogger } from "mcp-roundtrip/server";

/** The question the server asks; the answer comes back under the key "region". */
export const ASK_REGION = {
  method: "elicitation/create",
  params: {
    message: "Which region should the database live in?",
    requestedSchema: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
  },
} as const satisfies InputRequest;

/** The server's name and version, as clients see them in `serverInfo`. */
export const PROVISIONER_INFO = { name: "Provisioner", version: "1.0.0" } as const;

/**
 * The provision tool's handlers, without sealing: tests use them to show
 * what the wire carries before a boundary is installed.
 */
export function provisionHandlers(): ServerHandlers {
  return {
    onListTools: () => ({
      tools: [
        {
          name: "provision",
          description: "Provision a database. Asks which region to put it in.",
          inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
      ],
    }),
    onCallTool: (params, ctx) => {
      const answer = ctx.inputResponses?.region as ElicitResult | undefined;
      if (answer?.action !== "accept" || answer.content === undefined) {
        return inputRequired({ inputRequests: { region: ASK_REGION }, requestState: "provision-v1" });
      }
      const name = String((params.arguments as { name?: unknown } | undefined)?.name);
      return { content: [{ type: "text", text: `Provisioned '${name}' in ${String(answer.content.region)}.` }] };
    },
  };
}

/** Builds the Provisioner server. Its sealing key lives as long as this process. */
export function createProvisionServer(logger?: ServerLogger): Server {
  const logged = logger === undefined ? {} : { logger };
  const server = new Server(PROVISIONER_INFO, provisionHandlers(), logged);
  // One line opts the low-level server into sealing: the client only ever sees an opaque token.
  const security = RequestStateSecurity.ephemeral(logger === undefined ? {} : { logger: { warn: (message, rejection) => logger.warn(message, { ...rejection }) } });
  server.use(requestStateBoundary(security, { audience: PROVISIONER_INFO.name, ...logged }));
  return server;
}
