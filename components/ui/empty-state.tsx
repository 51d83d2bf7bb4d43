import type { ReactNode } from "react";

/** What a list says when it has nothing to show. */
export function EmptyState({ title, body, action }: { title: string; body?: string; action?: ReactNode }) {
  return (
    <div className="card flex flex-col items-start gap-2 p-6 sm:p-8">
      <p className="text-lg font-semibold text-fg">{title}</p>
      {body ? <p className="text-fg-muted">{body}</p> : null}
      {action}
    </div>
  );
}
