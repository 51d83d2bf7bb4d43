"use client";

import { useEmbedding } from "@/components/layout/embedding-context";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";

type SkeletonPage = "overview" | "courses" | "orders" | "events" | "settings";

const BLOCK = "skeleton";

/**
 * A page's layout while it is on the way after a link was followed (components/layout/pending-page.tsx): its
 * real title where the title does not depend on the data, and blocks where the data will be, each the height
 * of what replaces it.
 */
export function PageSkeleton({ page }: { page: SkeletonPage }) {
  const { messages } = useI18n();
  const { embedded } = useEmbedding();
  // Settings' words ship with its page alone (lib/i18n/messages/settings.ts); its title is the tab's name.
  const title = page === "settings" ? messages.nav.settings : messages[page].title;
  return (
    <div aria-busy="true">
      <header className="mb-6 sm:mb-8">
        {page === "overview" ? (
          <>
            <p className="text-sm font-medium text-fg-muted">{title}</p>
            <h1 className="text-2xl font-semibold tracking-tight text-fg sm:text-3xl">
              <span className="sr-only">{title}</span>
              <span aria-hidden="true" className={`inline-block h-[1em] w-56 max-w-full align-middle ${BLOCK}`} />
            </h1>
          </>
        ) : (
          <h1 className="text-2xl font-semibold tracking-tight text-fg sm:text-3xl">{title}</h1>
        )}
      </header>
      <p role="status" className="sr-only">
        {interpolate(messages.shell.loadingPage, { page: title })}
      </p>
      <div aria-hidden="true">{body(page, embedded)}</div>
    </div>
  );
}

function body(page: SkeletonPage, embedded: boolean) {
  if (page === "overview") {
    return (
      <div className={`grid gap-8 ${embedded ? "" : "lg:grid-cols-5 lg:items-start"}`}>
        <div className={`h-36 ${BLOCK} ${embedded ? "" : "lg:col-span-3"}`} />
        <div className={`h-56 ${BLOCK} ${embedded ? "" : "lg:col-span-2 lg:row-span-2"}`} />
        {embedded ? null : <div className={`h-40 ${BLOCK} lg:col-span-3`} />}
      </div>
    );
  }
  if (page === "courses") {
    return (
      <>
        <div className={`mb-6 h-24 ${BLOCK}`} />
        <div className={`grid gap-2 ${embedded ? "" : "sm:grid-cols-2 sm:gap-4 lg:grid-cols-3"}`}>
          {Array.from({ length: 6 }, (_, index) => (
            <div key={index} className={`h-28 ${BLOCK} ${embedded ? "" : "sm:h-80"}`} />
          ))}
        </div>
      </>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {Array.from({ length: page === "settings" ? 3 : 4 }, (_, index) => (
        <div key={index} className={`h-32 ${BLOCK}`} />
      ))}
    </div>
  );
}
