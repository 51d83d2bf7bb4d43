import { describe, expect, it } from "vitest";

import { staticFilesNamedBy } from "../../support/static-files";

describe("staticFilesNamedBy (what a first visit fetches, for the cache journey and the bench's cold load)", () => {
  it("takes each static file the page's tags and its RSC payload name, once, and nothing outside /_next/static/", () => {
    const html = [
      '<link rel="stylesheet" href="/_next/static/chunks/app.css" nonce="n" data-precedence="next"/>',
      '<link rel="preload" href="/_next/static/media/geist_latin.woff2" as="font" crossorigin="" type="font/woff2"/>',
      '<link rel="preload" as="script" fetchPriority="low" nonce="n" href="/_next/static/chunks/main.js"/>',
      '<script src="/_next/static/chunks/main.js" async="" nonce="n"></script>',
      '<script src="/_next/static/chunks/page.js?dpl=1" async=""></script>',
      '<link rel="manifest" href="/manifest.webmanifest"/><link rel="icon" href="/icon.svg"/>',
      '<a href="/courses">Courses</a><img src="/icon.svg"/>',
      // Hydration's chunks, named in the RSC payload as a JSON string inside a script.
      '<script>self.__next_f.push([1,"5:I[12,[\\"/_next/static/chunks/view.js\\",',
      '\\"/_next/static/chunks/main.js\\"],\\"CoursesView\\"]"])</script>',
    ].join("");
    expect(staticFilesNamedBy(html)).toEqual([
      "/_next/static/chunks/app.css",
      "/_next/static/media/geist_latin.woff2",
      "/_next/static/chunks/main.js",
      "/_next/static/chunks/page.js",
      "/_next/static/chunks/view.js",
    ]);
  });
});
