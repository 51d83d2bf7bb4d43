/**
 * The sandbox's own site pages: home, the course catalog, upcoming events, course and lecture pages (so
 * Resume links land somewhere real), the generated SVG covers and the maintenance page that redirect-mode
 * failures point at. The text documents (`/auth.md`, `/llms.txt`, `/pricing.md`, `/openapi.json`) live in `documents.ts`.
 */
import type { Hono } from "hono";
import { currentSession, errorPage, logoutForm } from "./authorize";
import { getAccountData } from "./data/account";
import { COURSES, electiveCourse, FEATURED_COURSE_COUNT, findCourse, findLecture } from "./data/catalog";
import { coursePlan, formatPrice } from "./data/pricing";
import { escapeHtml, formatPosition, html, page } from "./html";
import { DEMO_MEMBERS, DEMO_PASSWORD, SCHOOL } from "./seed";
import type { SandboxState } from "./state";

function coverSvg(name: string, palette: readonly [string, string]): string {
  // The name is printed beside the cover wherever a cover is shown: the cover itself is a pattern, so it
  // never repeats it. The pattern is drawn from the name, so each course keeps its own look.
  const seed = [...name].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) >>> 0, 7);
  const shapes = [0, 1, 2]
    .map((i) => {
      const x = 80 + ((seed >> (i * 5)) % 480);
      const y = 60 + ((seed >> (i * 7 + 3)) % 240);
      const r = 40 + ((seed >> (i * 3 + 1)) % 90);
      return `<circle cx="${x}" cy="${y}" r="${r}" fill="#fff" fill-opacity="${(0.08 + i * 0.05).toFixed(2)}"/>`;
    })
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360" \
role="img" aria-label="${escapeHtml(name)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">\
<stop offset="0" stop-color="${palette[0]}"/><stop offset="1" stop-color="${palette[1]}"/></linearGradient></defs>
<rect width="640" height="360" fill="url(#g)"/>
${shapes}
<text x="32" y="64" font-size="20" fill="#fff" fill-opacity="0.85" font-family="system-ui, sans-serif">${escapeHtml(SCHOOL.name)}</text>
</svg>`;
}

export function registerSitePages(app: Hono, state: SandboxState): void {
  // The listed catalog, and the courses beyond it that the `extraEnrollments` knob enrols members in.
  const siteCourse = (slug: string) => {
    const elective = /^elective-([1-9]\d{0,3})$/.exec(slug);
    const number = elective ? Number(elective[1]) : 0;
    return findCourse(slug) ?? (number >= 1 && number <= state.knobs.extraEnrollments ? electiveCourse(number) : undefined);
  };
  app.get("/", (c) => {
    const signedIn = currentSession(c, state);
    const body = html`<h1>Demo Academy</h1>
<p>This is a <strong>sandbox</strong> of an online-learning site. \
It implements the Site Access API (OAuth 2.0 and OpenID Connect, the member Account API in GraphQL) with demo members and data, \
so the member companion dashboard can be tried and tested locally.</p>
${
  signedIn
    ? html`<p>You are signed in to the sandbox as <strong>${signedIn.member.name}</strong>.</p>
${logoutForm(signedIn.session.csrfToken)}`
    : ""
}
<h2>Who can sign in</h2>
<p>Every demo account uses the password <code>${DEMO_PASSWORD}</code>. \
Sign-in happens when an application sends you here to authorize it.</p>
<ul>${DEMO_MEMBERS.map((m) => html`<li><code>${m.email}</code>: ${m.name}, ${m.description.toLowerCase()}</li>`)}</ul>
<p class="muted">Discovery: <a href="/.well-known/oauth-authorization-server">/.well-known/oauth-authorization-server</a>. \
Authentication: <a href="/auth.md">/auth.md</a>. API description: <a href="/openapi.json">/openapi.json</a>. \
For agents: <a href="/llms.txt">/llms.txt</a>. Prices: <a href="/pricing.md">/pricing.md</a>. Operators: <a href="/admin">Admin</a>.</p>`;
    return c.html(page("Home", body).body);
  });

  // The catalog and the events page: where the dashboard's empty states send a member with nothing yet.
  app.get("/courses", (c) => {
    const items = COURSES.slice(0, FEATURED_COURSE_COUNT).map(
      (course) => html`<li><a href="/courses/${course.slug}">${course.name}</a>: ${formatPrice(coursePlan(course))}</li>`,
    );
    const body = html`<h1>Courses at Demo Academy</h1>
<p>${COURSES.length} courses; the featured ones:</p>
<ul>${items}</ul>`;
    return c.html(page("Courses", body).body);
  });

  app.get("/events", (c) => {
    const now = state.now();
    const seen = new Set<string>();
    const upcoming = DEMO_MEMBERS.flatMap((member) => getAccountData(member.email, now).eventRegistrations)
      .map((registration) => registration.event)
      .filter((event) => event.startTime.getTime() > now && !seen.has(event.id) && seen.add(event.id))
      .sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
    const items = upcoming.map(
      (event) =>
        html`<li>${event.title} (${event.startTime.toISOString().slice(0, 10)})${event.location ? `, ${event.location}` : ""}</li>`,
    );
    const body = html`<h1>Upcoming events at Demo Academy</h1>
<ul>${items}</ul>`;
    return c.html(page("Events", body).body);
  });

  // Where an order awaiting payment is paid (the Account API's optional `paymentUrl`).
  app.get("/orders/:tradeNo/pay", (c) => {
    const body = html`<h1>Complete payment</h1>
<p>Order <strong>${c.req.param("tradeNo")}</strong> is awaiting payment. <span class="muted">(The sandbox takes no payments.)</span></p>`;
    return c.html(page("Complete payment", body).body);
  });

  app.get("/courses/:slug", (c) => {
    const course = siteCourse(c.req.param("slug"));
    if (!course) return errorPage(c, "Course not found", "There is no course at this address.", 404);
    const lectureItems = course.lectures.map(
      (lecture) => html`<li><a href="/courses/${course.slug}/lectures/${lecture.id}">${lecture.title}</a> \
<span class="muted">(${formatPosition(lecture.durationSeconds)})</span></li>`,
    );
    const body = html`<h1>${course.name}</h1>
<img src="/covers/${course.slug}.svg" alt="" width="320" height="180">
<p>${course.description}</p>
<h2>Get access</h2>
<p><strong>${formatPrice(coursePlan(course))}</strong> for ${coursePlan(course).access} access. \
Buying it again renews access that ended. <span class="muted">(The sandbox takes no payments.)</span></p>
<h2>Lectures</h2>
<ol>${lectureItems}</ol>`;
    return c.html(page(course.name, body).body);
  });

  app.get("/courses/:slug/lectures/:lectureId", (c) => {
    const course = siteCourse(c.req.param("slug"));
    const lecture = course ? findLecture(course, c.req.param("lectureId")) : undefined;
    if (!course || !lecture) return errorPage(c, "Lecture not found", "There is no lecture at this address.", 404);
    const t = c.req.query("t");
    const seconds = t !== undefined && /^\d{1,7}$/.test(t) ? Number(t) : 0;
    const body = html`<p class="muted"><a href="/courses/${course.slug}">${course.name}</a></p>
<h1>${lecture.title}</h1>
<div role="img" aria-label="Video player" style="background:#1a202c;color:#fff;aspect-ratio:16/9;display:flex;\
align-items:center;justify-content:center;border-radius:.5rem">▶</div>
<p><strong>${seconds > 0 ? `Resuming at ${formatPosition(seconds)}` : "Starting from the beginning"}\
</strong> of ${formatPosition(lecture.durationSeconds)}.</p>`;
    return c.html(page(lecture.title, body).body);
  });

  app.get("/covers/:file", (c) => {
    const file = c.req.param("file");
    const course = file.endsWith(".svg") ? siteCourse(file.slice(0, -4)) : undefined;
    if (!course) return c.text("Not found", 404);
    return c.body(coverSvg(course.name, course.palette), 200, {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    });
  });

  app.get("/maintenance", (c) =>
    c.html(page("Maintenance", html`<h1>Down for maintenance</h1><p>The site is being updated. Try again in a few minutes.</p>`).body, 503),
  );
}
