// Listening and closing for the bench's node:http servers, in a module of its own so that a floor
// server (the bare echo, the elicitation floor) loads no SDK only to start listening.

/** Listens on a free loopback port; resolves the endpoint URL. */
export function listen(server, path = "/mcp") {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}${path}`));
  });
}

/** Closes a `node:http` server, dropping idle keep-alive sockets. */
export function closeServer(server) {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections?.();
  });
}
