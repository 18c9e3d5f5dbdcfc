/**
 * JWT access tokens for an MCP server that is an OAuth 2.1 protected
 * resource: {@link jwtVerifier} is a ready `verify` for the HTTP handler's
 * `authorization` option, built on jose. No `node:` import: it runs where
 * the web-standard handler runs.
 *
 * @packageDocumentation
 */
export { jwtVerifier, type JwtVerifierOptions } from "./verifier.js";
export { JwtRejected, type JwtRejectionReason } from "./errors.js";
