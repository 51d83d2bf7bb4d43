import type { ReactNode } from "react";

/** The page's one h1, with an optional line of context under it. */
export function PageHeader({ title, eyebrow, description }: { title: ReactNode; eyebrow?: ReactNode; description?: ReactNode }) {
  return (
    <header className="mb-6 sm:mb-8">
      {eyebrow ? <p className="text-sm font-medium text-fg-muted">{eyebrow}</p> : null}
      <h1 className="text-2xl font-semibold tracking-tight text-fg sm:text-3xl">{title}</h1>
      {description ? <p className="mt-1 text-fg-muted">{description}</p> : null}
    </header>
  );
}
