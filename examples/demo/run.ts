// The demo's steps, separate from process I/O so a test can drive them.
import { Client, isInputRequired, type ElicitRequestParams, type ElicitResult, type InputResponse } from "mcp-roundtrip/client";
import type { Server } from "mcp-roundtrip/server";
import { createProvisionServer } from "./provision-server.js";

/** How the demo talks to the outside world. */
export interface DemoIO {
  /** Prints one line. */
  print(line: string): void;
  /** Asks the user `question`; resolves to their answer, or `fallback` when they give none. */
  ask(question: string, fallback: string): Promise<string>;
}

/** The region used when nobody is there to answer. */
export const DEFAULT_REGION = "eu-west-1";

/** Shows the start of a sealed token, never the whole of it. */
function preview(token: string | undefined): string {
  if (token === undefined) return "(none)";
  return `${token.slice(0, 14)}… (${token.length} chars, opaque to the client)`;
}

/**
 * Runs the provision flow twice: first round by round through
 * `client.session` (printing each round), then in one call with the
 * automatic loop.
 *
 * @param io - Where lines go and where questions are asked.
 * @param target - The provision server: an in-process one by default, or the
 *   URL of one served over Streamable HTTP (`serve-http.ts`).
 */
export async function runDemo(io: DemoIO, target?: string | Server): Promise<void> {
  const server = target ?? createProvisionServer({ warn: (m) => io.print(`server warning: ${m}`), error: (m) => io.print(`server error: ${m}`) });

  const answerElicitation = async (params: ElicitRequestParams): Promise<ElicitResult> => {
    const region = await io.ask(params.message, DEFAULT_REGION);
    return { action: "accept", content: { region } };
  };

  const client = await Client.connect(server, { onElicit: answerElicitation, clientInfo: { name: "provision-demo", version: "1.0.0" } });
  io.print(`Connected to ${client.serverInfo?.name ?? "?"} ${client.serverInfo?.version ?? ""} over protocol ${client.protocolVersion}.`);

  io.print("");
  io.print("— Hand-driven rounds (client.session) —");
  const args = { name: "orders" };
  let round = 1;
  io.print(`round ${round}: tools/call provision ${JSON.stringify(args)}`);
  let result = await client.session.callTool("provision", args, { allowInputRequired: true });
  while (isInputRequired(result)) {
    const requests = result.inputRequests ?? {};
    for (const [key, request] of Object.entries(requests)) {
      const detail = request.method === "elicitation/create" ? ` "${request.params.message}"` : "";
      io.print(`  ← input_required: ${key}: ${request.method}${detail}`);
    }
    io.print(`  ← requestState: ${preview(result.requestState)}`);
    const inputResponses: Record<string, InputResponse> = {};
    for (const [key, request] of Object.entries(requests)) {
      if (request.method !== "elicitation/create") throw new Error(`this demo cannot answer ${request.method}`);
      inputResponses[key] = await answerElicitation(request.params);
      io.print(`  → ${key}: ${JSON.stringify(inputResponses[key])}`);
    }
    round++;
    io.print(`round ${round}: tools/call provision ${JSON.stringify(args)} + inputResponses + the same requestState`);
    result = await client.session.callTool("provision", args, {
      allowInputRequired: true,
      inputResponses,
      requestState: result.requestState,
    });
  }
  io.print(`  ← complete: ${textOf(result.content)}`);

  io.print("");
  io.print("— Automatic loop (client.callTool) —");
  const final = await client.callTool("provision", { name: "analytics" });
  io.print(`  ← complete: ${textOf(final.content)}`);
  await client.close();
}

function textOf(content: readonly { type: string }[]): string {
  return content.map((block) => ("text" in block ? String(block.text) : `[${block.type}]`)).join(" ");
}
