/**
 * A plain Node HTTP server with the dashboard's clean shutdown installed, for tests/integration/
 * graceful-shutdown.test.ts (run with `node --import tsx --conditions=react-server`, as the server modules need).
 * `GET /slow?ms=N` answers after N milliseconds; anything else answers at once. Prints `listening <port>`,
 * and `slow request <N>` once a slow request is in the server's hands (the test signals only then).
 */
import { createServer } from "node:http";

import { installGracefulShutdown } from "@/lib/server/graceful-shutdown";

installGracefulShutdown();
const server = createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://localhost");
  const delay = url.pathname === "/slow" ? Number(url.searchParams.get("ms") ?? "0") : 0;
  if (delay > 0) console.info(`slow request ${delay}`);
  setTimeout(() => response.end("done"), delay);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") console.info(`listening ${address.port}`);
});
