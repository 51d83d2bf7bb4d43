"use client";

import type { ReactNode } from "react";

/**
 * A GET form to `action` with `query` as hidden fields, for a button that must work before the page is
 * interactive (a slow phone): pressed then, the browser loads that address from the server; once the page
 * is interactive, the form never leaves it and `onSubmit` runs instead. Show more and Retry use it.
 */
export function FormBeforeHydration({
  action,
  query,
  onSubmit,
  className,
  children,
}: {
  action: string;
  query: Iterable<[string, string]>;
  onSubmit: () => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form
      method="get"
      action={action}
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {[...query].map(([name, value], index) => (
        <input key={index} type="hidden" name={name} value={value} />
      ))}
      {children}
    </form>
  );
}
