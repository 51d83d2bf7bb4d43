"use client";

import { Fragment, useEffect, useId, useRef, useState } from "react";
import { useConnections } from "@/lib/client/hooks";
import { isPassingReason } from "@/lib/contract/connections";
import { urlPieces } from "@/lib/format/url-lines";
import { inTimeFromNow, interpolate, siteCalled } from "@/lib/i18n";
import { CONNECTIONS_WORDS } from "@/lib/i18n/messages/connections";
import { useI18n, useWords } from "@/lib/i18n/provider";
import type { Connections, ConnectionTool } from "@/lib/types/account";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LoadingState } from "@/components/ui/loading-state";
import { useSiteInfo } from "@/components/layout/site-info";

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

function ToolList({
  id,
  title,
  help,
  tools,
  language,
}: {
  id: string;
  title: string;
  help: string;
  tools: ConnectionTool[];
  /** The language the site says it wrote the tools' texts in, so that a screen reader reads them in it. */
  language: string | undefined;
}) {
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
            {/* A title made of the tool's name is ours, in no language of the site's. */}
            <span lang={tool.title ? language : undefined} className="font-medium text-fg">
              {tool.title ?? humanize(tool.name)}
            </span>
            {tool.description ? (
              <span lang={language} className="text-fg">
                {tool.description}
              </span>
            ) : null}
            <ToolName name={tool.name} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The address's box: a read-only field, for the label, focus, selection and copying, drawn transparent over a
 * copy of the address that shows it. A field wraps its text by the browser's own rules, which know nothing of
 * URLs ("http://127" / ".0.0.1", "…:47" / "00/mcp"), and it cannot hold a <wbr>. The copy breaks only between
 * the pieces `urlPieces` cuts, each an inline block so that the browser's own breaks inside it (after the "-"
 * of "northwind-academy", after a "?") go unused; a piece wider than the box takes its width and wraps inside
 * it, at a "-" or anywhere. The field breaks anywhere, so it never needs more lines than the copy, which gives
 * both their height.
 */
const URL_BOX = "col-start-1 row-start-1 whitespace-pre-wrap rounded-lg border px-3 py-2 font-mono text-sm";

/** The field over the shown address: its text, caret and selection transparent, even in forced colours. */
const URL_FIELD =
  `${URL_BOX} resize-none overflow-hidden break-all border-transparent bg-transparent text-transparent caret-transparent ` +
  "forced-color-adjust-none selection:bg-transparent selection:text-transparent";

/** The address as it shows, with the field's selection drawn on it (the field's own is transparent). */
function ShownUrl({ url, selection }: { url: string; selection: readonly [number, number] | null }) {
  const pieces = urlPieces(url);
  return (
    <span aria-hidden="true" className={`${URL_BOX} border-line bg-surface-muted text-fg wrap-anywhere`}>
      {pieces.map((piece, index) => {
        const from = pieces.slice(0, index).join("").length;
        const within = (at: number) => Math.min(Math.max(at - from, 0), piece.length);
        const start = selection ? within(selection[0]) : 0;
        const end = selection ? within(selection[1]) : 0;
        return (
          <Fragment key={index}>
            {index > 0 ? <wbr /> : null}
            <span className="inline-block max-w-full">
              {piece.slice(0, start)}
              {start < end ? (
                <mark className="bg-accent text-accent-fg forced-colors:bg-[Highlight] forced-colors:text-[HighlightText]">
                  {piece.slice(start, end)}
                </mark>
              ) : null}
              {piece.slice(end)}
            </span>
          </Fragment>
        );
      })}
    </span>
  );
}

/** Whether the device's main pointer is a finger (a phone, a tablet): no Ctrl+C to press there. */
function touchFirst(): boolean {
  return window.matchMedia("(pointer: coarse)").matches;
}

/** The MCP URL to give an assistant: the whole address at every width, a Copy button, and what to do when copying fails. */
export function CopyableUrl({ url }: { url: string }) {
  const t = useWords(CONNECTIONS_WORDS);
  const fieldId = useId();
  const helpId = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [state, setState] = useState<"idle" | "copied" | "fallback-touch" | "fallback-keyboard">("idle");
  const [selection, setSelection] = useState<readonly [number, number] | null>(null);

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
      setState(touchFirst() ? "fallback-touch" : "fallback-keyboard");
    }
  }

  function showSelection(element: HTMLTextAreaElement) {
    setSelection(document.activeElement === element ? [element.selectionStart, element.selectionEnd] : null);
  }

  const status =
    state === "copied"
      ? t.copied
      : state === "fallback-touch"
        ? t.copyFallback.touch
        : state === "fallback-keyboard"
          ? t.copyFallback.keyboard
          : "";
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={fieldId} className="font-medium text-fg">
        {t.url}
      </label>
      <div className="flex flex-wrap items-start gap-2">
        {/* The whole address at every width, to read or type on another device: it wraps, and the box grows
            with it (a one-line field cut it off in the panel, with nothing to say it went on). */}
        <div className="grid min-w-0 flex-1 basis-56">
          <ShownUrl url={url} selection={selection} />
          <textarea
            id={fieldId}
            ref={field}
            readOnly
            rows={1}
            spellCheck={false}
            value={url}
            aria-describedby={helpId}
            onFocus={(event) => {
              event.currentTarget.select();
              showSelection(event.currentTarget);
            }}
            onSelect={(event) => showSelection(event.currentTarget)}
            onBlur={() => setSelection(null)}
            className={URL_FIELD}
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
        className={state.startsWith("fallback") ? "text-sm font-medium text-warning-fg" : "text-sm font-medium text-ok-fg"}
      >
        {status}
      </p>
    </div>
  );
}

function AvailablePanel({ data }: { data: AvailableConnections }) {
  const { locale, messages } = useI18n();
  const t = useWords(CONNECTIONS_WORDS);
  // The member signs in at the site, by its name: the MCP server's own name may be its software's.
  const siteName = siteCalled(messages, useSiteInfo()?.name ?? null);
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
      <ToolList id="connections-for-you" title={t.forYou} help={t.forYouHelp} tools={mine} language={data.toolsLanguage} />
      <ToolList id="connections-catalog" title={t.catalog} help={t.catalogHelp} tools={catalog} language={data.toolsLanguage} />
      <section aria-labelledby="connections-how-to" className="flex flex-col gap-3 border-t border-line pt-4">
        <h3 id="connections-how-to" className="font-semibold text-fg">
          {t.howTo}
        </h3>
        <CopyableUrl url={data.mcpUrl} />
        <ol className="flex list-decimal flex-col gap-1 pl-6 text-fg">
          <li>{t.howToAdd}</li>
          <li>{interpolate(t.howToSignIn, { site: siteName })}</li>
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
  const { messages, locale } = useI18n();
  const t = useWords(CONNECTIONS_WORDS);
  const query = useConnections();

  let body;
  if (query.isPending) body = <LoadingState label={t.loading} />;
  else if (query.isError)
    body = <ErrorPanel title={t.error} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  else if (!query.data.available) {
    // A failure that may pass: said as for now, and the member may ask again.
    const { reason, retryAfterSeconds } = query.data;
    const mayPass = isPassingReason(reason);
    // A busy server that named its wait: when to try again, in the member's words.
    const said =
      reason === "busy" && retryAfterSeconds !== undefined
        ? interpolate(t.busyFor, { when: inTimeFromNow(retryAfterSeconds, locale) })
        : t.unavailable[reason];
    body = (
      <div className="flex flex-col items-start gap-2 rounded-xl border border-line bg-surface-muted p-4">
        <p className="font-semibold text-fg">{mayPass ? t.unavailableNowTitle : t.unavailableTitle}</p>
        <p className="text-fg">{said}</p>
        {mayPass ? (
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
  } else body = <AvailablePanel data={query.data} />;

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
