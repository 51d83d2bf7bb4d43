import type { ReactNode } from "react";

/**
 * A part of a page under its own heading (an h2 whose `id` names the section, so it is a region for
 * assistive technology); `card` draws it as a card, as Settings does.
 */
export function PageSection({ id, title, card = false, children }: { id: string; title: string; card?: boolean; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={card ? "card flex flex-col gap-3 p-4 sm:p-6" : "flex flex-col gap-3"}>
      <h2 id={id} className="text-lg font-semibold text-fg">
        {title}
      </h2>
      {children}
    </section>
  );
}
