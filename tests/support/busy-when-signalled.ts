/**
 * For tests/integration/run-commands.test.ts: a process with its own SIGTERM handler that prints `busy`
 * and then keeps its event loop busy for two seconds, as a launcher can be while it builds or copies its
 * server's output, then idles. Its handler prints `stopped cleanly` and exits 0.
 */
process.on("SIGTERM", () => {
  console.info("stopped cleanly");
  process.exit(0);
});
setInterval(() => undefined, 1_000);
// Written synchronously: on Linux, a pipe is.
console.info("busy");
const until = Date.now() + 2_000;
while (Date.now() < until);
