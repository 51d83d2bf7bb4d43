import Link from "next/link";

export default function NotFound() {
  return (
    <div className="flex flex-col items-start gap-4">
      <h1 className="text-2xl font-semibold text-fg">This page does not exist</h1>
      <Link className="btn btn-primary" href="/">
        Overview
      </Link>
    </div>
  );
}
