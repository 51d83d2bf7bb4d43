/**
 * Lab section (`npm run bench -- --lab=compression`, issue 26): what compressing a page costs the
 * dashboard. Each page is asked for twice in the same interleaved rounds: as a browser asks (its
 * Accept-Encoding, which Next.js's compression answers with gzip) and uncompressed (`identity`). The
 * difference in the dashboard's CPU per view is the compression's: Next.js's `compression` middleware
 * and Node's zlib, per answer; none of it is the dashboard's code, and the floor app (next-floor.ts)
 * pays it too.
 */
import { PAGE_PATHS } from "../../../lib/contract/paths";
import { round, type BenchSection } from "../context";
import { dashboardGet, runInterleaved, sideLine, type Side } from "../interleaved";

const PAGES = [
  { key: "overview", path: PAGE_PATHS.overview, withSession: true },
  { key: "courses", path: PAGE_PATHS.courses, withSession: true },
  { key: "signedOut", path: PAGE_PATHS.signedOut, withSession: false },
];

const ENCODINGS = { compressed: "gzip, deflate, br, zstd", identity: "identity" };

const documentHeaders = (acceptEncoding: string) => ({ accept: "text/html,application/xhtml+xml", "accept-encoding": acceptEncoding });

export const compressionCost: BenchSection = {
  name: "compression",
  title: "What compressing a page costs the dashboard: each page as a browser asks for it, and uncompressed",
  enabled: () => true,
  async run(context) {
    const sides: Side[] = PAGES.flatMap(({ key, path, withSession }) =>
      Object.entries(ENCODINGS).map(([encoding, acceptEncoding]) => ({
        name: `${key} ${encoding}`,
        share: 1,
        dashboard: true,
        spec: dashboardGet(path, withSession, documentHeaders(acceptEncoding)),
      })),
    );
    const { bySide, rounds, secondsPerSide } = await runInterleaved(
      context,
      sides,
      context.options.concurrentSeconds,
      context.options.pageWarmUpRequests,
    );
    const summary = [
      `compression at ${context.options.connections} connections, ${secondsPerSide} s per side in ${rounds} interleaved rounds:`,
      ...PAGES.map(({ key, path }) => {
        const compressed = bySide[`${key} compressed`]!;
        const identity = bySide[`${key} identity`]!;
        const cost = (compressed.cpuMsPerRequest ?? Number.NaN) - (identity.cpuMsPerRequest ?? Number.NaN);
        return (
          `    ${path.padEnd(12)} ${compressed.cpuMsPerRequest} CPU ms/view compressed (${compressed.bytesPerAnswer} B),` +
          ` ${identity.cpuMsPerRequest} uncompressed (${identity.bytesPerAnswer} B): compressing costs ${round(cost, 2)} ms a view,` +
          ` ${round((cost / (compressed.cpuMsPerRequest ?? Number.NaN)) * 100)} % of it`
        );
      }),
      ...sides.map((side) => sideLine(side.name, bySide[side.name]!)),
    ];
    return { summary, results: { rounds, secondsPerSide, bySide } };
  },
};
