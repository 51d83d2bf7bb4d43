import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

describe("site pages", () => {
  it("home says what the demo is and who can sign in", async () => {
    const response = await fetch(sandbox.url);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('<html lang="en">');
    expect(page).toContain("<h1>Demo Academy</h1>");
    for (const email of ["maya@example.com", "kai@example.com", "ben@example.com", "olivia@example.com"]) expect(page).toContain(email);
  });

  it("serves course pages and lecture pages, 404 for unknown ones", async () => {
    const course = await fetch(`${sandbox.url}/courses/watercolor-foundations`);
    expect(course.status).toBe(200);
    const coursePage = await course.text();
    expect(coursePage).toContain("Watercolor Foundations");
    // Start course and Renew access land here: the page sells the course.
    expect(coursePage).toMatch(/<h2>Get access<\/h2>\s*<p><strong>NT\$3,200<\/strong> for 1 year access/);
    const lecture = await fetch(`${sandbox.url}/courses/watercolor-foundations/lectures/48004?t=754`);
    const text = await lecture.text();
    expect(text).toContain("Painting skies and clouds");
    expect(text).toContain("Resuming at 12:34");
    expect((await fetch(`${sandbox.url}/courses/no-such-course`)).status).toBe(404);
    expect((await fetch(`${sandbox.url}/courses/watercolor-foundations/lectures/1`)).status).toBe(404);
  });

  it("serves SVG covers for every catalog course and auth.md with an errors section", async () => {
    const cover = await fetch(`${sandbox.url}/covers/intermediate-typescript.svg`);
    expect(cover.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    const svg = await cover.text();
    expect(svg).toContain("<svg");
    // The dashboard prints the name beside the cover: the picture never repeats it (only its label names it).
    expect(svg.replace(/aria-label="[^"]*"/, "")).not.toContain("TypeScript");
    const auth = await (await fetch(`${sandbox.url}/auth.md`)).text();
    expect(auth).toContain("## Errors");
  });
});

describe("catalog and events pages", () => {
  it("list the featured courses and the upcoming events, for the dashboard's empty states to link to", async () => {
    {
      const catalog = await fetch(`${sandbox.url}/courses`);
      expect(catalog.status).toBe(200);
      expect(await catalog.text()).toMatch(/<h1>Courses at Demo Academy<\/h1>[\s\S]*<a href="\/courses\/[a-z0-9-]+">/);
      const events = await fetch(`${sandbox.url}/events`);
      expect(events.status).toBe(200);
      expect(await events.text()).toMatch(/<h1>Upcoming events at Demo Academy<\/h1>[\s\S]*<li>/);
    }
  });
});
