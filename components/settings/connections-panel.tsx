"use client";

import { Fragment, useEffect, useId, useRef, useState } from "react";
import { useConnections } from "@/lib/client/hooks";
import { interpolate } from "@/lib/i18n";
import { CONNECTIONS_WORDS } from "@/lib/i18n/messages/connections";
import { useI18n, useWords } from "@/lib/i18n/provider";
import type { Connections, ConnectionTool } from "@/lib/types/account";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LoadingState } from "@/components/ui/loading-state";

type AvailableConnections = Extract<Connections, { available: true }>;

/** "list_my_orders" → "List my orders", for a tool the server gave no title. */
function humanize(name: string): string {
  const words = name.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "list_my_event_" / "registrations" in a narrow panel, not "list_my_event_regis" / "trations": a line may end after `_` or `.`. */
function ToolName({ name }: { name: string }) {
  return (
    <code className="text-sm text-fg-muted">
      {name.split(/(?<=[_.])/).map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </code>
  );
}

function ToolList({ id, title, help, tools }: { id: string; title: string; help: string; tools: ConnectionTool[] }) {
  if (tools.length === 0) return null;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h3 id={id} className="font-semibold text-fg">
        {title}
      </h3>
      <p className="text-fg-muted">{help}</p>
      <ul className="grid gap-2 sm:grid-cols-2">
        {tools.map((tool) => (
          <li key={tool.name} className="flex flex-col gap-1 rounded-xl border border-line p-3 wrap-anywhere">
            <span className="font-medium text-fg">{tool.title ?? humanize(tool.name)}</span>
            {tool.description ? <span className="text-fg">{tool.description}</span> : null}
            <ToolName name={tool.name} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The address's box and the hidden copy of it that gives the box its height: the same text, wrapped alike. */
const URL_BOX = "col-start-1 row-start-1 whitespace-pre-wrap break-all rounded-lg border px-3 py-2 font-mono text-sm";

function CopyableUrl({ url }: { url: string }) {
  const t = useWords(CONNECTIONS_WORDS);
  const fieldId = useId();
  const helpId = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [state, setState] = useState<"idle" | "copied" | "fallback">("idle");

  useEffect(() => {
    if (state !== "copied") return;
    const timer = window.setTimeout(() => setState("idle"), 5_000);
    return () => window.clearTimeout(timer);
  }, [state]);

  async function copy() {
    const clipboard = (navigator as Partial<Navigator>).clipboard;
    try {
      if (!clipboard) throw new Error("The clipboard is not available.");
      await clipboard.writeText(url);
      setState("copied");
    } catch {
      field.current?.focus();
      field.current?.select();
      setState("fallback");
    }
  }

  const status = state === "copied" ? t.copied : state === "fallback" ? t.copyFallback : "";
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={fieldId} className="font-medium text-fg">
        {t.url}
      </label>
      <div className="flex flex-wrap items-start gap-2">
        {/* The whole address at every width, to read or type on another device: it wraps anywhere, and the
            field grows with it (a one-line field cut it off in the panel, with nothing to say it went on). */}
        <div className="grid min-w-0 flex-1 basis-56">
          <span aria-hidden="true" className={`${URL_BOX} invisible border-transparent`}>
            {url}
          </span>
          <textarea
            id={fieldId}
            ref={field}
            readOnly
            rows={1}
            spellCheck={false}
            value={url}
            aria-describedby={helpId}
            onFocus={(event) => event.currentTarget.select()}
            className={`${URL_BOX} resize-none border-line bg-surface-muted text-fg`}
          />
        </div>
        <button type="button" className="btn btn-secondary" aria-label={t.copyLabel} onClick={() => void copy()}>
          {t.copy}
        </button>
      </div>
      <p id={helpId} className="text-sm text-fg-muted">
        {t.urlHelp}
      </p>
      <p
        role="status"
        aria-live="polite"
        className={state === "fallback" ? "text-sm font-medium text-warning-fg" : "text-sm font-medium text-ok-fg"}
      >
        {status}
      </p>
    </div>
  );
}

function AvailablePanel({ data }: { data: AvailableConnections }) {
  const { locale } = useI18n();
  const t = useWords(CONNECTIONS_WORDS);
  const mine = data.tools.filter((tool) => tool.access === "member");
  const catalog = data.tools.filter((tool) => tool.access === "public");
  return (
    <div className="flex flex-col gap-5">
      <p className="text-fg">
        <span className="font-medium text-fg-muted">{t.server}</span>
        {locale === "en" ? " " : ""}
        {data.serverVersion ? interpolate(t.serverVersion, { name: data.serverName, version: data.serverVersion }) : data.serverName}
      </p>
      {data.tools.length === 0 ? <p className="text-fg-muted">{t.noTools}</p> : null}
      <ToolList id="connections-for-you" title={t.forYou} help={t.forYouHelp} tools={mine} />
      <ToolList id="connections-catalog" title={t.catalog} help={t.catalogHelp} tools={catalog} />
      <section aria-labelledby="connections-how-to" className="flex flex-col gap-3 border-t border-line pt-4">
        <h3 id="connections-how-to" className="font-semibold text-fg">
          {t.howTo}
        </h3>
        <CopyableUrl url={data.mcpUrl} />
        <ol className="flex list-decimal flex-col gap-1 pl-6 text-fg">
          <li>{t.howToAdd}</li>
          <li>{interpolate(t.howToSignIn, { site: data.serverName })}</li>
        </ol>
        <p className="text-sm text-fg-muted">{t.howToSeparate}</p>
      </section>
    </div>
  );
}

/**
 * Settings → AI assistants: what an assistant connected to the site's MCP server can do for the member,
 * and the URL to give it. Loaded in the browser on its own, so it never holds up the rest of Settings.
 */
function ConnectionsPanel() {
  const { messages } = useI18n();
  const t = useWords(CONNECTIONS_WORDS);
  const query = useConnections();

  let body;
  if (query.isPending) body = <LoadingState label={t.loading} />;
  else if (query.isError)
    body = <ErrorPanel title={t.error} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  else if (!query.data.available)
    body = (
      <div className="flex flex-col items-start gap-2 rounded-xl border border-line bg-surface-muted p-4">
        <p className="font-semibold text-fg">{t.unavailableTitle}</p>
        <p className="text-fg">{t.unavailable[query.data.reason]}</p>
        {query.data.reason === "unreachable" ? (
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void query.refetch()}
            disabled={query.isFetching}
            aria-busy={query.isFetching}
          >
            {messages.errors.retry}
          </button>
        ) : null}
      </div>
    );
  else body = <AvailablePanel data={query.data} />;

  return (
    <div className="flex flex-col gap-4">
      <p className="text-fg-muted">{t.intro}</p>
      {body}
    </div>
  );
}

/** The panel inside Settings' "Connect an AI assistant (beta)" disclosure, named for assistive technology. */
export function AssistantConnections() {
  const t = useWords(CONNECTIONS_WORDS);
  return (
    <section aria-label={t.title} className="pt-3">
      <ConnectionsPanel />
    </section>
  );
}
