// The runtime's layers, checked in `npm test` (scripts/test.mjs) by dependency-cruiser.
// TypeScript 7 has no compiler API for the cruiser to parse with, so it parses with swc;
// type-only imports count like any other (a type circle is still a circle).
/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No import circle in runtime/: move what two modules share down a layer (a types module, runtime/protocol/).",
      from: { path: "^runtime/" },
      to: { circular: true },
    },
    {
      name: "protocol-is-the-floor",
      severity: "error",
      comment: "runtime/protocol/ is the bottom layer: it imports nothing else from runtime/ (generated/ is fine).",
      from: { path: "^runtime/protocol/" },
      to: { path: "^runtime/", pathNot: "^runtime/protocol/" },
    },
    {
      name: "state-below-the-sides",
      severity: "error",
      comment: "runtime/state/ (request-state sealing) never imports the server, the client or a transport: what it needs of a request lives in runtime/protocol/.",
      from: { path: "^runtime/state/" },
      to: { path: "^runtime/(server|client|transport)/" },
    },
    {
      name: "server-without-transport",
      severity: "error",
      comment: "runtime/server/ never imports a transport: the contracts it shares with them (request context, message handler, sessions) and the header rules live in runtime/protocol/.",
      from: { path: "^runtime/server/" },
      to: { path: "^runtime/transport/" },
    },
    {
      name: "transport-without-sides",
      severity: "error",
      comment: "runtime/transport/ never imports the server or the client: it drives them through the contracts in runtime/protocol/.",
      from: { path: "^runtime/transport/" },
      to: { path: "^runtime/(server|client)/" },
    },
    {
      name: "core-without-extensions",
      severity: "error",
      comment: "The core never imports an extension folder (redis, otel, jwt, oauth, official); extensions import the core.",
      from: { path: "^runtime/", pathNot: "^runtime/(redis|otel|jwt|oauth|official)/" },
      to: { path: "^runtime/(redis|otel|jwt|oauth|official)/" },
    },
  ],
  options: {
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist)/" },
    moduleSystems: ["es6"],
  },
};
