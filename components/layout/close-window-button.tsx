"use client";

/**
 * For a page shown in a popup the dashboard opened (the embedded panel's sign-in): closes it, back to the
 * site's page and its panel. A page reached some other way (no opener to return to) goes to `fallbackHref`.
 */
export function CloseWindowButton({ label, fallbackHref }: { label: string; fallbackHref: string }) {
  return (
    <button
      type="button"
      className="btn"
      onClick={() => {
        if (window.opener) window.close();
        else window.location.assign(fallbackHref);
      }}
    >
      {label}
    </button>
  );
}
