"use client";

import { VisuallyHidden } from "@/components/ui/visually-hidden";

/**
 * "Start course" or "Renew access": a link to the course's page on the site, in the top window when the
 * dashboard is embedded (like Resume). The course name follows the visible words, visually hidden.
 */
export function CourseSiteLink({ href, label, courseName }: { href: string; label: string; courseName: string }) {
  return (
    <a className="btn btn-primary w-full sm:w-auto" href={href} target="_top">
      {label}
      <VisuallyHidden>{` – ${courseName}`}</VisuallyHidden>
    </a>
  );
}
