import type { FormatLocale } from "@/lib/i18n/format-locale";

/**
 * Currencies shown without minor units. ISO 4217 gives TWD two decimals, but prices in New Taiwan dollars
 * are whole numbers in practice; the others are zero-decimal in ISO 4217 already.
 */
const ZERO_DECIMAL_CURRENCIES = new Set([
  "TWD",
  "JPY",
  "KRW",
  "VND",
  "CLP",
  "ISK",
  "UGX",
  "PYG",
  "XAF",
  "XOF",
  "XPF",
  "BIF",
  "DJF",
  "GNF",
  "KMF",
  "RWF",
  "VUV",
]);

/** How many decimals an amount in `currency` is shown with. */
export function currencyFractionDigits(currency: string): number {
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL_CURRENCIES.has(code)) return 0;
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * An amount in the order's currency: "NT$1,200", "US$12.50", "¥1,200", "US$12.50" (zh-TW). In English the
 * US dollar says its country too (Intl's en-US writes a bare "$"; en-GB already says "US$"), so a list
 * mixing currencies never leaves one ambiguous. An unknown currency code still reads sensibly: "1,200.00 XYZ".
 */
export function formatCurrency(amount: number, currency: string, formatLocale: FormatLocale): string {
  const code = currency.toUpperCase();
  const digits = currencyFractionDigits(code);
  try {
    const parts = new Intl.NumberFormat(formatLocale, {
      style: "currency",
      currency: code,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).formatToParts(amount);
    return parts.map((part) => (part.type === "currency" && part.value === "$" && code === "USD" ? "US$" : part.value)).join("");
  } catch {
    const number = new Intl.NumberFormat(formatLocale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    return `${number.format(amount)} ${code}`;
  }
}
