import { describe, expect, it } from "vitest";
import { Client, InputRequiredNotAllowed, PendingRequest, isInputRequired, type ElicitResult, type InputRequest, type InputResponse } from "mcp-roundtrip/client";
import { askRegion, fakeServer, text } from "./fake-server.js";

/** The seed's provision tool, scripted: asks for a region until it has one. */
const provision = () =>
  fakeServer((params) => {
    const answer = (params.inputResponses as Record<string, ElicitResult> | undefined)?.region;
    if (answer?.content === undefined) {
      return { resultType: "input_required", inputRequests: { region: askRegion }, requestState: "provision-v1" };
    }
    const name = (params.arguments as { name: string }).name;
    return text(`Provisioned '${name}' in ${answer.content.region}.`);
  });

function fulfil(request: InputRequest): InputResponse {
  if (request.method !== "elicitation/create") throw new Error(`this client cannot answer a ${request.method} request`);
  return { action: "accept", content: { region: "eu-west-1" } };
}

describe("client.session (hand-driven rounds)", () => {
  it("throws InputRequiredNotAllowed, carrying the result, when the caller did not opt in", async () => {
    const client = await Client.connect(provision());
    const error = (await client.session.callTool("provision", { name: "orders" }).catch((e: unknown) => e)) as InputRequiredNotAllowed;
    expect(error).toBeInstanceOf(InputRequiredNotAllowed);
    expect(error.message).toMatch(/allowInputRequired: true/);
    expect(error.result.requestState).toBe("provision-v1");
  });

  it("reproduces the seed's manual provision loop", async () => {
    const server = provision();
    const client = await Client.connect(server);
    const name = "orders";
    let result = await client.session.callTool("provision", { name }, { allowInputRequired: true });
    let rounds = 0;
    while (isInputRequired(result)) {
      rounds++;
      const responses: Record<string, InputResponse> = {};
      for (const [key, request] of Object.entries(result.inputRequests ?? {})) responses[key] = fulfil(request);
      result = await client.session.callTool(
        "provision",
        { name },
        {
          allowInputRequired: true,
          inputResponses: responses,
          requestState: result.requestState,
        },
      );
    }
    expect(rounds).toBe(1);
    expect(result.content).toEqual([{ type: "text", text: "Provisioned 'orders' in eu-west-1." }]);
    expect(server.calls[1]!.params).toMatchObject({
      name: "provision",
      arguments: { name },
      requestState: "provision-v1",
      inputResponses: { region: { action: "accept", content: { region: "eu-west-1" } } },
    });
    expect(server.calls[0]!.id).not.toBe(server.calls[1]!.id);
  });

  it("serialises a pending call that a fresh Client finishes with its own callbacks", async () => {
    const server = provision();
    const first = await Client.connect(server);
    const result = await first.session.callTool("provision", { name: "orders" }, { allowInputRequired: true });
    if (!isInputRequired(result)) throw new Error("expected input_required");
    const stored = JSON.stringify(first.session.pending(result));
    await first.close();

    const asked: string[] = [];
    const second = await Client.connect(server, {
      onElicit: (params, { key }) => {
        asked.push(`${key}: ${params.message}`);
        return { action: "accept", content: { region: "ap-south-1" } };
      },
    });
    const done = await second.resume(stored);
    expect(done).toMatchObject({ content: [{ type: "text", text: "Provisioned 'orders' in ap-south-1." }] });
    expect(asked).toEqual(["region: Which region should the database live in?"]);
    expect(server.calls.at(-1)!.params).toMatchObject({ name: "provision", arguments: { name: "orders" }, requestState: "provision-v1" });
  });

  it("continues a resumed pending call by hand with answers gathered elsewhere", async () => {
    const server = provision();
    const first = await Client.connect(server);
    const result = await first.session.callTool("provision", { name: "orders" }, { allowInputRequired: true });
    const json = first.session.pending(result as never)!.toJSON();
    const pending = PendingRequest.resume(JSON.parse(JSON.stringify(json)));
    expect(pending.inputRequests).toEqual({ region: askRegion });
    const fresh = await Client.connect(server);
    const done = await fresh.session.continue(pending, { region: { action: "accept", content: { region: "us-east-2" } } });
    expect(done).toMatchObject({ content: [{ text: "Provisioned 'orders' in us-east-2." }] });
  });

  it("keeps the round count across resume, so the limit still applies", async () => {
    const server = fakeServer(() => ({ resultType: "input_required", inputRequests: { q: askRegion }, requestState: "s" }));
    const client = await Client.connect(server, {
      onElicit: () => ({ action: "accept", content: { region: "x" } }),
      inputRequiredMaxRounds: 3,
    });
    const pending = PendingRequest.from(
      { method: "tools/call", name: "t" },
      { resultType: "input_required", requestState: "s", inputRequests: { q: askRegion as never } },
      2,
    );
    // checkState: false, so every request sent answers a round (the state probe would be one more request).
    await expect(client.resume(pending, { checkState: false })).rejects.toMatchObject({ name: "InputRequiredRoundsExceeded", rounds: 3 });
    expect(server.calls).toHaveLength(2);
  });

  it("round-trips every field through JSON and refuses malformed input", () => {
    const pending = PendingRequest.from({ method: "resources/read", uri: "db://x" }, { resultType: "input_required", requestState: "é\u0000\ud83d\ude00" }, 4);
    const again = PendingRequest.resume(JSON.stringify(pending));
    expect(again.toJSON()).toEqual(pending.toJSON());
    expect(again.requestState).toBe("é\u0000\ud83d\ude00");
    expect(() => PendingRequest.resume("{not json")).toThrow(TypeError);
    expect(() => PendingRequest.resume({ ...pending.toJSON(), type: "other" } as never)).toThrow(/not a serialised pending request/);
    expect(() => PendingRequest.resume({ ...pending.toJSON(), method: "tools/list" } as never)).toThrow(/method/);
    expect(() => PendingRequest.resume({ ...pending.toJSON(), round: 0 })).toThrow(/round/);
    expect(() => PendingRequest.resume({ ...pending.toJSON(), requestState: 5 } as never)).toThrow(/requestState/);
    const { requestState: _dropped, ...empty } = pending.toJSON();
    expect(() => PendingRequest.resume(empty)).toThrow(/nothing to continue/);
  });

  it("rejects bad arguments with TypeError", async () => {
    const client = await Client.connect(provision());
    await expect(client.session.callTool("" as string)).rejects.toThrow(TypeError);
    await expect(client.session.callTool("t", {}, { requestState: 3 as never })).rejects.toThrow(TypeError);
    await expect(client.session.continue({} as never)).rejects.toThrow(TypeError);
  });
});
