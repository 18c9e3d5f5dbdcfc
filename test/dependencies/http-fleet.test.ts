import { afterAll, describe, expect, it } from "vitest";
import { Client, isInputRequired, type ElicitResult, type InputRequiredResult } from "mcp-roundtrip/client";
import { McpServer, RequestStateSecurity, elicit } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";

const regionForm = { type: "object", properties: { region: { type: "string", enum: ["eu", "us"] } }, required: ["region"] } as const;
const sizeForm = { type: "object", properties: { gb: { type: "integer", minimum: 1 } }, required: ["gb"] } as const;
const yesNo = { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] } as const;

/** One instance of a fleet: same name, same key, its own process state. */
function instance(): McpServer {
  const server = new McpServer(
    { name: "fleet-provisioner", version: "1.0.0" },
    {
      requestStateSecurity: new RequestStateSecurity({ keys: ["fleet-secret-fleet-secret-fleet-secret!!"] }),
    },
  );
  server.tool(
    "provision",
    {
      needs: (need) =>
        need
          .add("region", () => elicit({ message: "Region?", schema: regionForm }))
          .add("size", () => elicit({ message: "Size?", schema: sizeForm }))
          .add("confirm", (_args, { region, size }) =>
            elicit({ message: `Create ${size.content?.gb ?? "?"} GB in ${region.content?.region ?? "?"}?`, schema: yesNo }),
          ),
    },
    (_args, { region, size, confirm }) => ({
      content: [{ type: "text", text: `${confirm.content?.yes ? "yes" : "no"}: ${size.content?.gb} GB in ${region.content?.region}` }],
    }),
  );
  return server;
}

describe("declared dependencies over Streamable HTTP across a fleet", () => {
  const handles: HttpServerHandle[] = [];
  afterAll(async () => {
    await Promise.all(handles.map((handle) => handle.close()));
  });

  it("each round may land on a different instance", async () => {
    const [a, b, c] = await Promise.all([serveHttp(instance()), serveHttp(instance()), serveHttp(instance())]);
    handles.push(a!, b!, c!);
    const onElicit = async (): Promise<ElicitResult> => ({ action: "cancel" });
    const [toA, toB, toC] = await Promise.all([a!, b!, c!].map((handle) => Client.connect(handle.url, { onElicit })));

    const first = (await toA!.session.callTool("provision", {}, { allowInputRequired: true })) as InputRequiredResult;
    expect(Object.keys(first.inputRequests ?? {}).sort()).toEqual(["region", "size"]);

    const second = (await toB!.session.callTool(
      "provision",
      {},
      {
        allowInputRequired: true,
        requestState: first.requestState!,
        inputResponses: { region: { action: "accept", content: { region: "eu" } }, size: { action: "accept", content: { gb: 8 } } },
      },
    )) as InputRequiredResult;
    expect(isInputRequired(second)).toBe(true);
    expect(second.inputRequests?.confirm).toMatchObject({ params: { message: "Create 8 GB in eu?" } });

    const done = await toC!.session.callTool(
      "provision",
      {},
      {
        allowInputRequired: true,
        requestState: second.requestState!,
        inputResponses: { confirm: { action: "accept", content: { yes: true } } },
      },
    );
    expect(done).toMatchObject({ content: [{ type: "text", text: "yes: 8 GB in eu" }] });
    await Promise.all([toA!, toB!, toC!].map((client) => client.close()));
  });
});
