"use client";

import type { ReactNode } from "react";
import { useConnections, useSession } from "@/lib/client/hooks";
import { formatDateTime } from "@/lib/format/datetime";
import { describeTimeZone } from "@/lib/format/time-zone-name";
import { describeScope, interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { SessionView } from "@/lib/contract/session";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { PageSection } from "@/components/ui/page-section";
import { useSiteInfo } from "@/components/layout/site-info";
import { ConnectionsPanel, useConnectionsWords } from "./connections-panel";
import { LanguageSwitch } from "./language-switch";
import { RevokeAccess } from "./revoke-access";
import { SignOutButton } from "./sign-out-button";
import { SignedInSessions } from "./signed-in-sessions";

function SettingsSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <PageSection id={id} title={title} card>
      {children}
    </PageSection>
  );
}

function DetailsList({ rows }: { rows: { label: string; value: ReactNode }[] }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
      {rows.map((row) => (
        <div key={row.label} className="contents">
          <dt className="text-sm font-medium text-fg-muted sm:text-base">{row.label}</dt>
          <dd className="mb-2 break-words text-fg sm:mb-0">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Who is signed in. */
function AccountDetails({ session }: { session: SessionView }) {
  const { messages } = useI18n();
  return (
    <DetailsList
      rows={[
        { label: messages.settings.name, value: session.name },
        { label: messages.settings.email, value: session.email },
      ]}
    />
  );
}

/** What the app may do, in words (the codes behind "Details"), the site by its name, and when access was granted, with its zone. */
function AccessDetails({ session }: { session: SessionView }) {
  const { messages, formatLocale, timeZone, now } = useI18n();
  const site = useSiteInfo();
  const siteName = site?.name ?? session.site.replace(/^https?:\/\//, "");
  const granted = interpolate(messages.settingsPage.timeInZone, {
    time: formatDateTime(session.grantedAt, { formatLocale, timeZone }),
    zone: describeTimeZone(timeZone, formatLocale, now),
  });
  return (
    <div className="flex flex-col gap-4">
      <ul className="flex flex-col gap-2">
        {session.scopes.map((scope) => (
          <li key={scope} className="flex items-start gap-2 text-fg">
            <span aria-hidden="true" className="mt-0.5 text-ok-fg">
              ✓
            </span>
            <span>{describeScope(scope, messages)}</span>
          </li>
        ))}
      </ul>
      <details className="group text-sm text-fg-muted">
        {/* inline-flex drops the browser's own marker: a turning arrow says that it opens. */}
        <summary className="inline-flex min-h-11 cursor-pointer items-center gap-1.5 underline-offset-4 hover:underline">
          <span aria-hidden="true" className="inline-block transition-transform group-open:rotate-90 motion-reduce:transition-none">
            ▸
          </span>
          {messages.settingsPage.details}
        </summary>
        <p>{messages.settingsPage.permissionCodes}:</p>
        <ul className="flex flex-wrap gap-2">
          {session.scopes.map((scope) => (
            <li key={scope}>
              <code>{scope}</code>
            </li>
          ))}
        </ul>
      </details>
      <DetailsList
        rows={[
          {
            label: messages.settings.site,
            value: (
              <a className="break-words text-accent underline" href={session.site} target="_top">
                {siteName}
              </a>
            ),
          },
          { label: messages.settings.grantedAt, value: <time dateTime={session.grantedAt}>{granted}</time> },
        ]}
      />
    </div>
  );
}

/** "Connect an AI assistant (beta)": shown only while the site's MCP server answers (its "MCP connections" beta is on). */
function AssistantDisclosure() {
  const { messages } = useI18n();
  const connectionsWords = useConnectionsWords();
  const connections = useConnections();
  if (!connections.isSuccess || !connections.data.available) return null;
  return (
    <details className="card p-4 sm:p-6">
      <summary className="inline-flex min-h-11 cursor-pointer items-center text-lg font-semibold text-fg">
        {messages.settingsPage.connectAssistant}
      </summary>
      <section aria-label={connectionsWords.title} className="pt-3">
        <ConnectionsPanel />
      </section>
    </details>
  );
}

/**
 * The Settings page, in the order a student needs it: who is signed in, the language, Sign out, what the
 * app may do and since when, an AI assistant (beta, collapsed), and last Revoke access. The language
 * and Sign out work even when the session details fail to load.
 */
export function SettingsView() {
  const { messages } = useI18n();
  const query = useSession();

  const pendingOrError = (title: string) =>
    query.isPending ? (
      <LoadingState label={messages.app.loading} />
    ) : (
      <ErrorPanel title={title} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
    );

  return (
    <div>
      <PageHeader title={messages.settings.title} />
      <div className="flex flex-col gap-6">
        <SettingsSection id="settings-account" title={messages.settingsPage.signedInAs}>
          {query.isSuccess ? <AccountDetails session={query.data} /> : pendingOrError(messages.errors.session)}
        </SettingsSection>
        <SettingsSection id="settings-language" title={messages.settings.language}>
          <LanguageSwitch />
        </SettingsSection>
        <SettingsSection id="settings-sign-out" title={messages.settings.signOut}>
          <SignOutButton />
        </SettingsSection>
        {query.isSuccess ? (
          <SettingsSection id="settings-permissions" title={messages.settings.permissions}>
            <AccessDetails session={query.data} />
          </SettingsSection>
        ) : null}
        <AssistantDisclosure />
        <SettingsSection id="settings-sessions" title={messages.sessions.title}>
          <SignedInSessions />
        </SettingsSection>
        <SettingsSection id="settings-revoke" title={messages.settings.revokeTitle}>
          <RevokeAccess />
        </SettingsSection>
      </div>
    </div>
  );
}
