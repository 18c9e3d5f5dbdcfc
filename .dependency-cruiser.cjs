// The runtime's layers, checked in `npm test` (scripts/test.mjs) by dependency-cruiser.
// TypeScript 7 has no compiler API for the cruiser to parse with, so it parses with swc;
// type-only imports count like any other (a type circle is still a circle).
/** A rule that fails `npm test`: no module matching `from` imports one matching `to`. */
const forbid = (name, comment, from, to) => ({ name, severity: "error", comment, from, to });

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    forbid(
      "no-circular",
      "No import circle in runtime/: move what two modules share down a layer (a types module, runtime/protocol/).",
      { path: "^runtime/" },
      { circular: true },
    ),
    forbid(
      "protocol-is-the-floor",
      "runtime/protocol/ is the bottom layer: it imports nothing else from runtime/ (generated/ is fine).",
      { path: "^runtime/protocol/" },
      { path: "^runtime/", pathNot: "^runtime/protocol/" },
    ),
    forbid(
      "state-below-the-sides",
      "runtime/state/ (request-state sealing) never imports the server, the client or a transport: what it needs of a request lives in runtime/protocol/.",
      { path: "^runtime/state/" },
      { path: "^runtime/(server|client|transport)/" },
    ),
    forbid(
      "state-primitives-at-the-bottom",
      "runtime/state/primitives/ (keys, the AEAD codec, encodings, crypto backends) imports no other state/ folder: the policy and the token build on it.",
      { path: "^runtime/state/primitives/" },
      { path: "^runtime/state/", pathNot: "^runtime/state/primitives/" },
    ),
    forbid(
      "state-policy-below-the-token",
      "runtime/state/policy/ (replay stores, principal binding, the options and their checks) imports only state/primitives/ from state/: the token layer (mint, verify, the token format) applies the policy, never the other way.",
      { path: "^runtime/state/policy/" },
      { path: "^runtime/state/", pathNot: "^runtime/state/(primitives|policy)/" },
    ),
    forbid(
      "state-layers-without-the-entry",
      "No module inside runtime/state/ imports the folder's entry, state/index.ts: the entry re-exports the layers.",
      { path: "^runtime/state/.+/" },
      { path: "^runtime/state/index\\.ts$" },
    ),
    forbid(
      "server-schema-is-a-leaf",
      "runtime/server/schema/ (checking values against JSON Schema and Standard Schema) imports nothing else from runtime/server/: the registries build on it. Its types/ folder (FromSchema and the handler argument types) is exempt.",
      { path: "^runtime/server/schema/", pathNot: "^runtime/server/schema/types/" },
      { path: "^runtime/server/", pathNot: "^runtime/server/schema/" },
    ),
    forbid(
      "server-without-transport",
      "runtime/server/ never imports a transport: the contracts it shares with them (request context, message handler, sessions) and the header rules live in runtime/protocol/.",
      { path: "^runtime/server/" },
      { path: "^runtime/transport/" },
    ),
    forbid(
      "transport-without-sides",
      "runtime/transport/ never imports the server or the client: it drives them through the contracts in runtime/protocol/.",
      { path: "^runtime/transport/" },
      { path: "^runtime/(server|client)/" },
    ),
    forbid(
      "generated-types-through-protocol",
      "Outside runtime/protocol/ and runtime/validate/, no runtime module imports generated/2026-07-28: its types come through runtime/protocol/types.ts, its validators and method tables through runtime/validate/.",
      { path: "^runtime/", pathNot: "^runtime/(protocol|validate)/" },
      { path: "^generated/2026-07-28/" },
    ),
    forbid(
      "client-without-transport",
      "runtime/client/ never imports a transport: Client.connect opens one through the factory in runtime/connect/, and names targets and transports by the types in runtime/protocol/.",
      { path: "^runtime/client/" },
      { path: "^runtime/transport/" },
    ),
    forbid(
      "connect-is-the-wiring",
      "runtime/connect/ (the client's transport factory) builds transports from the protocol floor and runtime/transport/ only: it never imports the server, the client or the state layer.",
      { path: "^runtime/connect/" },
      { path: "^runtime/", pathNot: "^runtime/(connect|protocol|transport)/" },
    ),
    forbid(
      "core-without-extensions",
      "The core never imports an extension (runtime/ext/: redis, otel, jwt, oauth, official); extensions import the core.",
      { path: "^runtime/", pathNot: "^runtime/ext/" },
      { path: "^runtime/ext/" },
    ),
    forbid(
      "extensions-apart",
      "An extension (runtime/ext/<name>/) never imports another extension: each is its own package entry, loaded only by who imports it.",
      { path: "^runtime/ext/([^/]+)/" },
      { path: "^runtime/ext/", pathNot: "^runtime/ext/$1/" },
    ),
    forbid(
      "adapters-on-the-contract",
      "runtime/adapters/<rev>.ts (one breaking revision's adapter) imports from runtime/ only the adapter contract (runtime/protocol/adapter.ts) and the model's types (runtime/protocol/types.ts); its wire types come from generated/<rev>/.",
      { path: "^runtime/adapters/" },
      { path: "^runtime/", pathNot: "^runtime/protocol/(adapter|types)\\.ts$" },
    ),
    forbid(
      "adapters-through-the-index",
      "Only the generated index (generated/adapters.ts, written by npm run codegen) imports an adapter file; the runtime finds them through runtime/protocol/adapters.ts.",
      { path: "^(runtime|generated)/", pathNot: "^generated/adapters\\.ts$" },
      { path: "^runtime/adapters/" },
    ),
    forbid(
      "entries-on-top",
      "runtime/entries/ (the package entries ./server, ./client, ./node) only re-exports the layers below; nothing imports an entry, extensions included: import the module that defines the name.",
      { path: "^runtime/", pathNot: "^runtime/entries/" },
      { path: "^runtime/entries/" },
    ),
  ],
  options: {
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist)/" },
    moduleSystems: ["es6"],
  },
};
