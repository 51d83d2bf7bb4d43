import Link from "next/link";
import { PAGE_PATHS } from "@/lib/contract/paths";

export default function NotFound() {
  return (
    <div className="flex flex-col items-start gap-4">
      <h1 className="text-2xl font-semibold text-fg">This page does not exist</h1>
      <Link className="btn btn-primary" href={PAGE_PATHS.overview}>
        Overview
      </Link>
    </div>
  );
}
