import { Mark } from "./mark";

/**
 * A disclosure's summary here is inline-flex, which drops the browser's own marker: this arrow says that it
 * opens, and turns once open (in the nearest `group`, the details). Hidden from assistive technology, which
 * announces the disclosure itself.
 */
export function OpensArrow() {
  return <Mark shape="chevronRight" className="transition-transform group-open:rotate-90 motion-reduce:transition-none" />;
}
