"use client";

import type { ReactNode } from "react";
import { useSession } from "@/lib/client/hooks";
import { formatDateTime } from "@/lib/format/datetime";
import { describeScope } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { SessionView } from "@/lib/contract/session";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { ConnectionsPanel } from "./connections-panel";
import { LanguageSwitch } from "./language-switch";
import { RevokeAccess } from "./revoke-access";
import { SignOutButton } from "./sign-out-button";
import { SignedInSessions } from "./signed-in-sessions";

function SettingsSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="card flex flex-col gap-3 p-4 sm:p-6">
      <h2 id={id} className="text-lg font-semibold text-fg">
        {title}
      </h2>
      {children}
    </section>
  );
}

function AccountDetails({ session }: { session: SessionView }) {
  const { messages, locale, timeZone } = useI18n();
  const rows: { label: string; value: ReactNode }[] = [
    { label: messages.settings.name, value: session.name },
    { label: messages.settings.email, value: session.email },
    {
      label: messages.settings.site,
      value: (
        <a className="break-all text-accent underline" href={session.site} target="_top">
          {session.site.replace(/^https?:\/\//, "")}
        </a>
      ),
    },
    {
      label: messages.settings.grantedAt,
      value: <time dateTime={session.grantedAt}>{formatDateTime(session.grantedAt, { locale, timeZone })}</time>,
    },
  ];
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

/**
 * The Settings page: who is signed in and to which site, what the app may do, when access was granted,
 * what an AI assistant connected to the site can do, the language, signing out and revoking access. The
 * language and assistant sections work even when the session details fail to load.
 */
export function SettingsView() {
  const { messages } = useI18n();
  const query = useSession();

  let account: ReactNode;
  if (query.isPending) account = <LoadingState label={messages.app.loading} />;
  else if (query.isError)
    account = (
      <ErrorPanel title={messages.errors.session} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
    );
  else account = <AccountDetails session={query.data} />;

  return (
    <div>
      <PageHeader title={messages.settings.title} />
      <div className="flex flex-col gap-6">
        <SettingsSection id="settings-account" title={messages.settings.account}>
          {account}
        </SettingsSection>
        {query.isSuccess ? (
          <SettingsSection id="settings-permissions" title={messages.settings.permissions}>
            <ul className="flex flex-col gap-2">
              {query.data.scopes.map((scope) => (
                <li key={scope} className="flex items-start gap-2 text-fg">
                  <span aria-hidden="true" className="mt-0.5 text-ok-fg">
                    ✓
                  </span>
                  <span>
                    {describeScope(scope, messages)} <code className="text-sm text-fg-muted">{scope}</code>
                  </span>
                </li>
              ))}
            </ul>
          </SettingsSection>
        ) : null}
        <SettingsSection id="settings-connections" title={messages.connections.title}>
          <ConnectionsPanel />
        </SettingsSection>
        <SettingsSection id="settings-language" title={messages.settings.language}>
          <LanguageSwitch />
        </SettingsSection>
        <SettingsSection id="settings-sessions" title={messages.sessions.title}>
          <SignedInSessions />
        </SettingsSection>
        <SettingsSection id="settings-revoke" title={messages.settings.revokeTitle}>
          <RevokeAccess />
          <div className="border-t border-line pt-4">
            <SignOutButton />
          </div>
        </SettingsSection>
      </div>
    </div>
  );
}
