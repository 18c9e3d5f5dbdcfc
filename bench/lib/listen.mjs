// Listening, reading a JSON body and closing for the bench's node:http servers, in a module of its own so that a floor
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

/**
 * Reads a POST's body and hands its JSON value to `onMessage`, as a bare
 * node:http server would (`decode` turns the bytes into text: UTF-8 by
 * default); a body that is not JSON gets an empty `400`.
 */
export function onJsonBody(req, res, onMessage, decode = (bytes) => bytes.toString("utf8")) {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    let message;
    try {
      message = JSON.parse(decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    } catch {
      res.writeHead(400).end();
      return;
    }
    onMessage(message);
  });
}
