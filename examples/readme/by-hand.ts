// README "Driving the rounds yourself": one round at a time, then a pending
// call stored as JSON and finished by a second client.
import { Client, PendingRequest, isInputRequired } from "mcp-roundtrip/client";
import { createServer } from "./server.js";
import { textOf } from "./client.js";

/** Runs the deploy tool by hand, then finishes a stored pending call elsewhere. */
export async function runByHand(): Promise<{ byHand: string; resumed: string; stored: string }> {
  const server = createServer();
  // No callbacks: declare what this client will answer by hand.
  const client = await Client.connect(server, { capabilities: { elicitation: { form: {} } } });

  let result = await client.session.callTool("deploy", { app: "shop" }, { allowInputRequired: true });
  while (isInputRequired(result)) {
    const inputResponses = { confirm: { action: "accept", content: { yes: true } } } as const;
    result = await client.session.callTool(
      "deploy",
      { app: "shop" },
      {
        allowInputRequired: true,
        inputResponses,
        requestState: result.requestState,
      },
    );
  }

  // Store a pending call as plain JSON (a queue, a database row) ...
  const first = await client.session.callTool("deploy", { app: "blog" }, { allowInputRequired: true });
  const stored = isInputRequired(first) ? JSON.stringify(client.session.pending(first)) : "";
  await client.close();

  // ... and finish it in another client, whose onElicit answers the waiting question.
  const other = await Client.connect(server, { onElicit: async () => ({ action: "accept", content: { yes: true } }) });
  try {
    const resumed = await other.resume(PendingRequest.resume(stored));
    return { byHand: textOf(result), resumed: textOf(resumed), stored };
  } finally {
    await other.close();
  }
}
