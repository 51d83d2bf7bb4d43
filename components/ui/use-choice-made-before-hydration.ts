"use client";

import { useEffect, useRef, type RefObject } from "react";

/**
 * What the named controls inside `controls` hold, as a form would send them (only checked radios and
 * checkboxes), among those drawn: a control hidden at this width (`display: none`: the Courses page's Show
 * pills on a phone, its Show select from 640 px) holds what the server rendered, not what was chosen.
 */
function valuesInControls(controls: HTMLElement): URLSearchParams {
  const values = new URLSearchParams();
  for (const control of controls.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input[name], select[name]")) {
    if (control.getClientRects().length === 0) continue;
    if (control instanceof HTMLInputElement && (control.type === "radio" || control.type === "checkbox") && !control.checked) continue;
    values.set(control.name, control.value);
  }
  return values;
}

/**
 * A choice tapped or typed before the page became interactive (a slow phone) changed only the DOM: React
 * hydrates controlled inputs as they are, fires no change for them, and sets them back at the next render,
 * so the choice is lost. Put the returned ref on the element around the controls: once hydrated, `report`
 * is called once with what the controls hold then, for the component to apply what differs from its state.
 */
export function useChoiceMadeBeforeHydration<T extends HTMLElement>(report: (values: URLSearchParams) => void): RefObject<T | null> {
  const controls = useRef<T>(null);
  const reportOnce = useRef(report);
  useEffect(() => {
    if (controls.current) reportOnce.current(valuesInControls(controls.current));
  }, []);
  return controls;
}
