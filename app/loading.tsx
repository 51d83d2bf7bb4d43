import { RootSkeleton } from "@/components/ui/page-skeleton";

export default function Loading() {
  return <RootSkeleton />;
}
