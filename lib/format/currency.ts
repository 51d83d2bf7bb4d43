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
 *
 * It comes in the pieces a line may break between, its currency sign and its number: "US$" | "129.00",
 * "KWD " | "1.500" (a space stays at the end of the first). Where the panel leaves an amount
 * less than a line at 200 % text, it breaks there, never inside its number.
 */
export function formatCurrencyPieces(amount: number, currency: string, formatLocale: FormatLocale): readonly string[] {
  const code = currency.toUpperCase();
  const digits = currencyFractionDigits(code);
  let parts: Intl.NumberFormatPart[];
  try {
    parts = new Intl.NumberFormat(formatLocale, {
      style: "currency",
      currency: code,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).formatToParts(amount);
  } catch {
    const number = new Intl.NumberFormat(formatLocale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    return [`${number.format(amount)} ${code}`];
  }
  const pieces = [""];
  // Whether the piece being written is the currency sign, once a part other than a space, a plus or a minus says so.
  let writingSign: boolean | undefined;
  for (const part of parts) {
    if (part.type !== "literal" && part.type !== "minusSign" && part.type !== "plusSign") {
      const isSign = part.type === "currency";
      if (writingSign !== undefined && writingSign !== isSign) pieces.push("");
      writingSign = isSign;
    }
    pieces[pieces.length - 1] += part.type === "currency" && part.value === "$" && code === "USD" ? "US$" : part.value;
  }
  return pieces;
}
