/**
 * Lab section (`npm run bench -- --lab=compression`, issue 26): what compressing an answer costs the
 * dashboard. Each page, and the data route, is asked for twice in the same interleaved rounds: as a
 * browser asks (its Accept-Encoding, which Next.js's compression answers with gzip) and uncompressed
 * (`identity`). The difference in the dashboard's CPU per answer is what compressing costs the process:
 * Next.js's `compression` middleware, Node's zlib, and their effect on the rest of its work. None of it
 * is the dashboard's code; the floor app (next-floor.ts) pays it too. Each side's garbage-collection pause
 * per answer is read beside its CPU (through the inspector), since zlib's streams hold memory outside
 * the JavaScript heap and could have made the collector work more.
 *
 * Beside them, what a member's first visit costs on top of its page view: the static files the Courses
 * page's HTML names (its stylesheet, the preloaded font, its scripts and hydration's), which a browser
 * with an empty cache fetches once per deployment. Next.js compresses them per request like any answer
 * (it keeps no compressed copy), so their CPU per cold load is printed both ways too. Each connection
 * asks for them in turn; the side's URL only gives the origin.
 */
import { PAGE_PATHS } from "../../../lib/contract/paths";
import { staticFilesNamedBy } from "../../../tests/support/static-files";
import { round, type BenchContext, type BenchSection } from "../context";
import { dashboardGet, runInterleaved, sideLine, type Side, type SideFigures } from "../interleaved";
import { DATA_ROUTE_PATH } from "../sequential";

const DOCUMENT = "text/html,application/xhtml+xml";

const ANSWERS = [
  { key: "overview", path: PAGE_PATHS.overview, withSession: true, accept: DOCUMENT },
  { key: "courses", path: PAGE_PATHS.courses, withSession: true, accept: DOCUMENT },
  { key: "signedOut", path: PAGE_PATHS.signedOut, withSession: false, accept: DOCUMENT },
  { key: "dataRoute", path: DATA_ROUTE_PATH, withSession: true, accept: "application/json" },
];

const ENCODINGS = { compressed: "gzip, deflate, br, zstd", identity: "identity" };

/** `side`'s CPU time and bytes for fetching each of `files` once, as one cold load. */
function perColdLoad(side: SideFigures, files: number): string {
  return `${round((side.cpuMsPerRequest ?? Number.NaN) * files)} CPU ms, ${Math.round((side.bytesPerAnswer * files) / 1024)} KB`;
}

export const compressionCost: BenchSection = {
  name: "compression",
  title: "What compressing an answer costs the dashboard: each page and the data route as a browser asks, and uncompressed",
  enabled: () => true,
  async run(context) {
    const coursesHtml = await fetch(`${context.target.appUrlIPv4}${PAGE_PATHS.courses}`, {
      headers: { cookie: context.member.header(), accept: DOCUMENT },
    });
    const staticFiles = staticFilesNamedBy(await coursesHtml.text());
    if (!coursesHtml.ok || staticFiles.length === 0) {
      throw new Error(`no static files named by ${PAGE_PATHS.courses} (${coursesHtml.status})`);
    }
    const sides: Side[] = [
      ...ANSWERS.flatMap(({ key, path, withSession, accept }) =>
        Object.entries(ENCODINGS).map(([encoding, acceptEncoding]) => ({
          name: `${key} ${encoding}`,
          share: 1,
          dashboard: true,
          spec: dashboardGet(path, withSession, { accept, "accept-encoding": acceptEncoding }),
        })),
      ),
      ...Object.entries(ENCODINGS).map(([encoding, acceptEncoding]) => ({
        name: `static files ${encoding}`,
        share: 1,
        dashboard: true,
        spec: (benchContext: BenchContext, durationSeconds: number) => ({
          ...dashboardGet(PAGE_PATHS.courses, false, { "accept-encoding": acceptEncoding })(benchContext, durationSeconds),
          paths: staticFiles,
        }),
      })),
    ];
    const gcPauses = await (await context.inspector()).observeGcPauses();
    const { bySide, rounds, secondsPerSide } = await runInterleaved(
      context,
      sides,
      context.options.concurrentSeconds,
      context.options.pageWarmUpRequests,
      gcPauses.read,
    ).finally(gcPauses.stop);
    const summary = [
      `compression at ${context.options.connections} connections, ${secondsPerSide} s per side in ${rounds} interleaved rounds:`,
      ...ANSWERS.map(({ key, path }) => {
        const compressed = bySide[`${key} compressed`]!;
        const identity = bySide[`${key} identity`]!;
        const cost = (compressed.cpuMsPerRequest ?? Number.NaN) - (identity.cpuMsPerRequest ?? Number.NaN);
        return (
          `    ${path.padEnd(22)} ${compressed.cpuMsPerRequest} CPU ms/answer compressed (${compressed.bytesPerAnswer} B),` +
          ` ${identity.cpuMsPerRequest} uncompressed (${identity.bytesPerAnswer} B): compressing costs ${round(cost, 2)} ms an answer,` +
          ` ${round((cost / (compressed.cpuMsPerRequest ?? Number.NaN)) * 100)} % of it;` +
          ` paused for garbage collection ${compressed.gcPauseMsPerRequest} ms an answer compressed,` +
          ` ${identity.gcPauseMsPerRequest} uncompressed`
        );
      }),
      `    a first visit's ${staticFiles.length} static files (${PAGE_PATHS.courses}'s stylesheet, font and scripts), once each:` +
        ` ${perColdLoad(bySide["static files compressed"]!, staticFiles.length)} compressed,` +
        ` ${perColdLoad(bySide["static files identity"]!, staticFiles.length)} uncompressed`,
      ...sides.map((side) => sideLine(side.name, bySide[side.name]!)),
    ];
    return { summary, results: { rounds, secondsPerSide, staticFiles, bySide } };
  },
};
