"use client";

import { Fragment } from "react";

import { formatCurrencyPieces } from "@/lib/format/currency";
import { formatDate } from "@/lib/format/datetime";
import { describeItemType, describeOrderState } from "@/lib/format/order-states";
import { interpolate, siteCalled } from "@/lib/i18n";
import { ORDERS_WORDS } from "@/lib/i18n/messages/orders";
import { useI18n, useWords } from "@/lib/i18n/provider";
import type { Order } from "@/lib/types/account";
import { useSiteInfo } from "@/components/layout/site-info";
import { Badge } from "@/components/ui/badge";

/**
 * A name and its amount on one line, the amount at the right. In a card narrower than 11rem (a phone with
 * text at 150 % or more; the panel's cards have 11.75rem at 100 %), a long name puts the amount under it,
 * still at the right: beside it, the amount never shrinks, or the name would be squeezed to a letter a line
 * or pass the card's edge. On a line of its own there, an amount wider than the line breaks after its
 * currency sign (the panel at 200 % text: "US$" | "129.00").
 */
const AMOUNT_ROW = "flex items-baseline justify-between gap-x-4 @max-[11rem]:flex-wrap";

/** An amount whose line may break between its currency sign and its number (formatCurrencyPieces). */
function Amount({ pieces }: { pieces: readonly string[] }) {
  return pieces.map((piece, index) => (
    <Fragment key={index}>
      {index > 0 ? <wbr /> : null}
      {piece}
    </Fragment>
  ));
}

/** One order: trade number, date, state in words, line items, total and any refund. */
export function OrderCard({ order }: { order: Order }) {
  const { locale, formatLocale, timeZone, messages } = useI18n();
  const words = useWords(ORDERS_WORDS);
  const site = useSiteInfo();
  const payOnSite = interpolate(words.payOnSite, { site: siteCalled(messages, site?.name ?? null) });
  const state = describeOrderState(order, locale);
  const money = (amount: number) => <Amount pieces={formatCurrencyPieces(amount, order.currency, formatLocale)} />;
  const date = order.paidAt ?? order.createdAt;
  const dateText = interpolate(order.paidAt ? words.paidOn : words.placedOn, {
    date: formatDate(date, { formatLocale, timeZone }),
  });
  const headingId = `order-${order.id}`;
  const fullyRefunded = order.refundedAmount !== null && order.refundedAmount >= order.amount;

  return (
    <article aria-labelledby={headingId} className="card @container flex flex-col gap-4 p-4 sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div>
          {/* The site's order number is one long word: with larger text on a phone, it breaks rather than pass the card's edge. */}
          <h2 id={headingId} className="font-semibold text-fg wrap-anywhere">
            {interpolate(words.tradeNo, { tradeNo: order.tradeNo })}
          </h2>
          <p className="text-sm text-fg-muted">
            <time dateTime={date}>{dateText}</time>
          </p>
        </div>
        <Badge tone={state.tone}>{state.text}</Badge>
      </div>
      <div>
        <h3 className="sr-only">{words.items}</h3>
        <ul className="divide-y divide-line border-y border-line">
          {order.lineItems.map((item, index) => (
            <li key={`${item.name}-${index}`} className={`${AMOUNT_ROW} py-2`}>
              <span className="min-w-0">
                <span className="block text-fg wrap-anywhere">{item.name}</span>
                <span className="block text-sm text-fg-muted">{describeItemType(item.itemType, locale)}</span>
              </span>
              <span className="ml-auto shrink-0 tabular-nums text-fg @max-[11rem]:shrink">{money(item.amount)}</span>
            </li>
          ))}
        </ul>
      </div>
      <dl className="flex flex-col gap-1">
        <div className={AMOUNT_ROW}>
          <dt className="font-medium text-fg">{words.total}</dt>
          <dd className={`ml-auto tabular-nums font-semibold ${fullyRefunded ? "text-fg-muted line-through" : "text-fg"}`}>
            {money(order.amount)}
          </dd>
        </div>
        {order.refundedAmount !== null ? (
          <div className={`${AMOUNT_ROW} text-warning-fg`}>
            <dt className="font-medium">{words.state.refunded}</dt>
            <dd className="ml-auto tabular-nums font-semibold">{money(order.refundedAmount)}</dd>
          </div>
        ) : null}
      </dl>
      {order.state === "not_paid" ? (
        order.paymentUrl ? (
          <a className="btn btn-primary self-start" href={order.paymentUrl} target="_top">
            {words.completePayment}
          </a>
        ) : (
          // The site gave no payment link (it has none, or failed to give it): never an unpaid order with no way on.
          <p className="text-sm text-fg-muted">
            {site ? (
              <a href={site.url} target="_top" className="text-accent underline">
                {payOnSite}
              </a>
            ) : (
              payOnSite
            )}
          </p>
        )
      ) : null}
    </article>
  );
}
